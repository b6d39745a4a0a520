#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""atomic_comments.py [SOURCE_ROOT]: every ordered atomic carries a comment.

House rule (docs/design.md, "Memory ordering, pair by pair"): each atomic
operation or fence with an ordering stronger than relaxed says, in a comment
right above it or on it, what it orders and where its pair is.

Scans lib/**/*.c, lib/**/*.h and include/petw/*.h for statements that use
  - memory_order_acquire/release/acq_rel/seq_cst/consume,
  - __ATOMIC_ACQUIRE/RELEASE/ACQ_REL/SEQ_CST/CONSUME,
  - atomic_thread_fence / atomic_signal_fence,
  - the implicitly seq_cst forms: atomic_load(), atomic_store(),
    atomic_exchange(), atomic_compare_exchange_*(), atomic_fetch_*(),
    atomic_flag_*() without _explicit, and __sync_* builtins.
Relaxed operations are exempt. Text inside comments and string literals is
ignored.

A statement is the line of the match, extended upward while the previous
line does not end in ';', '{' or '}' (comment-only and blank lines do not
end one, so a comment block right above joins the statement; a preprocessor
line does), and downward until a line that does. It passes when a comment
appears on one of its lines, or a comment opens ("/*" or "//") within the
3 lines above its first line.

Exits 1 with one line per finding ("file:line: text") and a summary line;
0 with a summary line otherwise.
"""
import glob
import os
import re
import sys

WINDOW = 3      # lines above a statement searched for a comment opener
MAX_WALK = 40   # statement extent limit, either direction

ORDERED = re.compile(
    r"\bmemory_order_(?:acquire|release|acq_rel|seq_cst|consume)\b"
    r"|\b__ATOMIC_(?:ACQUIRE|RELEASE|ACQ_REL|SEQ_CST|CONSUME)\b"
    r"|\batomic_(?:thread|signal)_fence\b"
    r"|\b__sync_\w+\s*\("
    r"|\batomic_(?:load|store|exchange|compare_exchange_strong|compare_exchange_weak"
    r"|fetch_(?:add|sub|or|xor|and)|flag_test_and_set|flag_clear)\s*\(")
LABEL = re.compile(r"^\s*(?:case\b.*|default|[A-Za-z_]\w*)\s*:$")


def split_lines(text):
    """Per line: (code with comments and literals blanked, has comment text,
    has a comment opener)."""
    code, comment, opener = [], [], []
    cur, has_c, has_o = [], False, False
    state = "code"  # code, block, line, str, chr
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        nx = text[i + 1] if i + 1 < n else ""
        if ch == "\n":
            if state == "line":
                state = "code"
            elif state in ("str", "chr"):
                state = "code"  # unterminated literal: recover
            code.append("".join(cur))
            comment.append(has_c or state == "block")
            opener.append(has_o)
            cur, has_c, has_o = [], state == "block", False
            i += 1
            continue
        if state == "code":
            if ch == "/" and nx == "*":
                state, has_c, has_o = "block", True, True
                cur.append("  ")
                i += 2
                continue
            if ch == "/" and nx == "/":
                state, has_c, has_o = "line", True, True
                cur.append("  ")
                i += 2
                continue
            if ch == '"':
                state = "str"
            elif ch == "'":
                state = "chr"
            cur.append(ch)
        elif state == "block":
            has_c = True
            if ch == "*" and nx == "/":
                state = "code"
                cur.append("  ")
                i += 2
                continue
            cur.append(" ")
        elif state == "line":
            cur.append(" ")
        else:  # inside a string or character literal
            if ch == "\\" and nx not in ("", "\n"):
                cur.append("  ")
                i += 2
                continue
            if (state == "str" and ch == '"') or (state == "chr" and ch == "'"):
                state = "code"
                cur.append(ch)
            else:
                cur.append(" ")
        i += 1
    if cur or not code:
        code.append("".join(cur))
        comment.append(has_c or state == "block")
        opener.append(has_o)
    return code, comment, opener


def ends_statement(code_line):
    s = code_line.strip()
    return s.endswith((";", "{", "}")) or s.startswith("#") or bool(LABEL.match(s))


def statement_extent(code, idx):
    """First and last line (0-based) of the statement holding line idx. In a
    macro body, lines ending in a backslash continue the statement, up to
    the #define line at most."""
    start = idx
    for _ in range(MAX_WALK):
        if start == 0 or code[start].strip().startswith("#"):
            break
        prev = code[start - 1].strip()
        if prev.endswith("\\"):
            if prev[:-1].rstrip().endswith((";", "{", "}")):
                break
        elif ends_statement(prev):
            break
        start -= 1
    in_macro = any(code[i].strip().endswith("\\") or code[i].strip().startswith("#")
                   for i in range(start, idx))
    end = idx
    for _ in range(MAX_WALK):
        s = code[end].strip()
        if end + 1 >= len(code):
            break
        if s.endswith("\\"):
            in_macro = True
            if s[:-1].rstrip().endswith((";", "{", "}")):
                break
        elif in_macro or s.endswith((";", "{", "}")) or s.startswith("#"):
            break
        end += 1
    return start, end


def check_file(path, rel):
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    raw = text.split("\n")
    code, comment, opener = split_lines(text)
    findings, seen, count = [], set(), 0
    for idx, line in enumerate(code):
        if not ORDERED.search(line):
            continue
        start, end = statement_extent(code, idx)
        if (start, end) in seen:
            continue
        seen.add((start, end))
        count += 1
        if any(comment[start:end + 1]) or any(opener[max(0, start - WINDOW):start]):
            continue
        first = next(i for i in range(start, end + 1) if code[i].strip())
        findings.append("%s:%d: %s" % (rel, first + 1, raw[first].strip()))
    return findings, count


def sources(root):
    files = set()
    for pattern in ("lib/**/*.c", "lib/**/*.h", "include/petw/*.h"):
        files.update(glob.glob(os.path.join(root, pattern), recursive=True))
    return sorted(files)


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(
        os.path.abspath(__file__)), "..", "..")
    root = os.path.abspath(root)
    if not os.path.isdir(os.path.join(root, "lib")):
        print("atomic_comments: no lib/ under %s" % root)
        return 2
    findings, total, files = [], 0, sources(root)
    for path in files:
        found, count = check_file(path, os.path.relpath(path, root))
        findings += found
        total += count
    for line in findings:
        print(line)
    if findings:
        print("atomic_comments: %d of %d ordered atomic statements in %d files lack a "
              "comment saying what they order and where their pair is"
              % (len(findings), total, len(files)))
        return 1
    print("atomic_comments: all %d ordered atomic statements in %d files are commented"
          % (total, len(files)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
