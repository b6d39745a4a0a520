#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""sdk_names.py - the public names of the Windows SDK's ETW headers, for
checking petw's ETW-compatible headers against them.

    sdk_names.py list SDK_INCLUDE_DIR              # kind, header, name, value
    sdk_names.py missing SDK_INCLUDE_DIR -- CC ARGS  # names petw's headers lack
    sdk_names.py generate SDK_INCLUDE_DIR > test/windows/etw_sdk_names.h  # then clang-format -i

SDK_INCLUDE_DIR holds evntprov.h, evntrace.h, evntcons.h, tdh.h, relogger.h,
TraceLoggingProvider.h, TraceLoggingActivity.h, winmeta.h and wmistr.h (the
SDK's shared/ and um/ directories copied into one, or given twice separated
by ':'). The headers are read as text, never compiled: a small preprocessor
evaluates their #if guards for a Windows 10 user-mode desktop build (the
configuration petw's <sdkddkver.h> selects) and keeps what it declares:
object-like macros (with their value when it is an integer constant),
function-like macros, enum constants (with their value), typedef names,
struct tags and functions. Names starting with an underscore and a lower-case
letter or with two underscores (the SDK's internals), include guards and
the SDK's own build switches are left out.

`missing` preprocesses every name's header through petw's headers with the
compiler given after `--` and prints the names that do not appear (as a
macro, or as a token of the preprocessed text). `generate` writes the
macro and enum values as a C header of PETW_SDK_VALUE(name, value) lines
that test/windows/test_sdk_names.c turns into static assertions.
"""
import os
import re
import subprocess
import sys
import tempfile

HEADERS = ['evntprov.h', 'evntrace.h', 'evntcons.h', 'tdh.h', 'relogger.h',
           'TraceLoggingProvider.h', 'TraceLoggingActivity.h', 'winmeta.h', 'wmistr.h']

# The configuration the #if guards are evaluated in: a 64-bit user-mode
# desktop program for Windows 10 (petw's default), C or C++.
CONFIG = {
    '_WIN32': 1, '_WIN64': 1, '_WINNT_': 1, 'WINNT': 1, '_AMD64_': 1, '_M_AMD64': 1, '_M_X64': 1,
    '_MSC_VER': 1930, '_MSC_EXTENSIONS': 1,
    '_WIN32_WINNT': 0x0A00, 'WINVER': 0x0A00, 'NTDDI_VERSION': 0x0A00000C,
    '_WIN32_WINNT_NT4': 0x0400, '_WIN32_WINNT_WIN2K': 0x0500, '_WIN32_WINNT_WINXP': 0x0501,
    '_WIN32_WINNT_WS03': 0x0502, '_WIN32_WINNT_VISTA': 0x0600, '_WIN32_WINNT_LONGHORN': 0x0600,
    '_WIN32_WINNT_WIN7': 0x0601, '_WIN32_WINNT_WIN8': 0x0602, '_WIN32_WINNT_WINBLUE': 0x0603,
    '_WIN32_WINNT_WINTHRESHOLD': 0x0A00, '_WIN32_WINNT_WIN10': 0x0A00,
    'NTDDI_WINXP': 0x05010000, 'NTDDI_VISTA': 0x06000000, 'NTDDI_WIN7': 0x06010000,
    'NTDDI_WIN8': 0x06020000, 'NTDDI_WINBLUE': 0x06030000, 'NTDDI_WIN10': 0x0A000000,
    'NTDDI_WIN10_TH2': 0x0A000001, 'NTDDI_WIN10_RS1': 0x0A000002,
    'NTDDI_WIN10_RS2': 0x0A000003, 'NTDDI_WIN10_RS3': 0x0A000004,
    'NTDDI_WIN10_RS4': 0x0A000005, 'NTDDI_WIN10_RS5': 0x0A000006,
    'NTDDI_WIN10_19H1': 0x0A000007, 'NTDDI_WIN10_VB': 0x0A000008,
    'NTDDI_WIN10_MN': 0x0A000009, 'NTDDI_WIN10_FE': 0x0A00000A,
    'NTDDI_WIN10_CO': 0x0A00000B, 'NTDDI_WIN10_NI': 0x0A00000C,
    'WINAPI_FAMILY': 3, 'WINAPI_PARTITION_DESKTOP': 1, 'WINAPI_PARTITION_APP': 1,
    'WINAPI_PARTITION_SYSTEM': 1, 'WINAPI_PARTITION_GAMES': 1,
    'WINAPI_PARTITION_PC_APP': 1, 'WINAPI_PARTITION_PHONE_APP': 0,
}
# Evaluated as not defined whatever the code does: kernel mode, MIDL, the
# SDK's own build.
UNDEFINED = {'_NTDDK_', '_NTIFS_', '_WMIKM_', '_EVNTRACE_KERNEL_MODE', 'MIDL_PASS',
             '_WMI_SOURCE_', '_KERNEL_MODE', 'WINAPI_FAMILY_PHONE_APP', '_APISET_EVENTING',
             '_ETW_KM_', '__midl', 'RC_INVOKED', 'NO_ETW_APP_DEPRECATION_WARNINGS',
             '_CONTROL_FLOW_GUARD_XFG', 'CINTERFACE', 'COBJMACROS', 'TLG_HAVE_EVENT_SET_INFORMATION',
             'TLG_EVENT_WRITE_TRANSFER', 'TLG_HAVE_EVENT_SET_INFORMATION'}

SKIP_MACRO = re.compile(
    r'^(_[a-z]|__|_?(EVNTRACE|EVNTPROV|EVNTCONS|TDH|WMISTR|RELOGGER|WINMETA)_?H?_*$|'
    r'_EVNTRACE_|_EVNTPROV_|_EVNTCONS_|_TDH_H|_WMISTR_|_WINMETA_|_TRACELOGGING|'
    r'TRACELOGGINGPROVIDER_H|TRACELOGGINGACTIVITY_H|_TLG|_tlg|ETW_BUFFER_CONTEXT_DEF|'
    r'_TRACEHANDLE_DEFINED|MIDL_|DECLSPEC_XFGVIRT|EVNTPROV_PFORCEINLINE|EVNTAPI$|WMIAPI$|'
    r'TDHAPI$|TDH_INLINE$|\w+_DEF$|_ETW_KM_|RPC_|EXTERN_GUID|WNODE_HEADER_DEFINED|_WMIKM)')


def read(path):
    with open(path, encoding='latin-1') as f:
        text = f.read().replace('\r\n', '\n')
    text = re.sub(r'\\\n', ' ', text)
    # Comments out, keeping line structure.
    out, i, n = [], 0, len(text)
    while i < n:
        if text.startswith('/*', i):
            j = text.find('*/', i + 2)
            j = n if j < 0 else j + 2
            out.append('\n' * text.count('\n', i, j))
            i = j
        elif text.startswith('//', i):
            j = text.find('\n', i)
            i = n if j < 0 else j
        elif text[i] in '"\'':
            q = text[i]
            j = i + 1
            while j < n and text[j] != q:
                j += 2 if text[j] == '\\' else 1
            out.append(text[i:j + 1])
            i = j + 1
        else:
            out.append(text[i])
            i += 1
    return ''.join(out)


def cond_value(expr, defines):
    e = re.sub(r'defined\s*\(\s*(\w+)\s*\)|defined\s+(\w+)',
               lambda m: ' 1 ' if (m.group(1) or m.group(2)) in defines else ' 0 ', expr)
    e = re.sub(r'WINAPI_FAMILY_PARTITION\s*\([^)]*\)', ' 1 ', e)
    e = re.sub(r'(\d+)[uUlL]+\b', r'\1', e)

    def ident(m):
        w = m.group(0)
        v = defines.get(w, 0)
        return str(v) if isinstance(v, int) else '0'
    e = re.sub(r'\b[A-Za-z_]\w*\b', ident, e)
    e = e.replace('&&', ' and ').replace('||', ' or ')
    e = re.sub(r'!(?!=)', ' not ', e)
    try:
        return bool(eval(e))
    except Exception:
        return False


def preprocess(text, defines):
    """The lines the configuration keeps, and the macros it defines in order."""
    kept, macros = [], []
    stack = []  # (active, taken)
    for line in text.split('\n'):
        s = line.strip()
        m = re.match(r'#\s*(\w+)\s*(.*)', s)
        active = all(a for a, _ in stack)
        if m:
            d, rest = m.group(1), m.group(2).strip()
            if d in ('if', 'ifdef', 'ifndef'):
                if d == 'ifdef':
                    v = rest.split()[0] in defines if rest else False
                elif d == 'ifndef':
                    name = rest.split()[0] if rest else ''
                    # Include guards and "not yet defined" tests: taken.
                    v = name not in defines
                else:
                    v = cond_value(rest, defines)
                stack.append([v, v])
            elif d == 'elif':
                if stack[-1][1]:
                    stack[-1][0] = False
                else:
                    v = cond_value(rest, defines)
                    stack[-1] = [v, v]
            elif d == 'else':
                stack[-1][0] = not stack[-1][1]
                stack[-1][1] = True
            elif d == 'endif':
                stack.pop()
            elif d == 'define' and active:
                mm = re.match(r'(\w+)(\([^)]*\))?\s*(.*)', rest)
                if mm:
                    name, args, val = mm.group(1), mm.group(2), mm.group(3).strip()
                    if name not in UNDEFINED:
                        defines.setdefault(name, val if args is None else None)
                        macros.append((name, args is not None, val))
            elif d == 'undef' and active:
                defines.pop(rest.split()[0], None)
            continue
        if active:
            kept.append(line)
    return '\n'.join(kept), macros


def int_value(expr, values):
    e = expr.strip()
    if not e:
        return None
    for _ in range(8):
        e2 = re.sub(r'\b([A-Za-z_]\w*)\b',
                    lambda m: '(%s)' % values[m.group(1)] if m.group(1) in values else m.group(1), e)
        if e2 == e:
            break
        e = e2
    e = re.sub(r'\((?:ULONG|LONG|DWORD|UCHAR|USHORT|ULONGLONG|ULONG64|int|unsigned|'
               r'unsigned int|unsigned long|BYTE|WORD|UINT8|UINT16|UINT32|UINT64|INT8|INT16|'
               r'INT32|INT64|HRESULT|NTSTATUS|TDH_CONTEXT_TYPE|EVENT_FIELD_TYPE|'
               r'EVENT_FILTER_TYPE|ENABLECALLBACK_ENABLED_STATE)\)', '', e)
    e = re.sub(r'(0[xX][0-9a-fA-F]+|\d+)(?:[uU]?[lL]{0,2}|[lL]{1,2}[uU]?|ui64|i64)\b', r'\1', e)
    if re.search(r'[A-Za-z_]\w*', re.sub(r'0[xX][0-9a-fA-F]+', '', e)):
        return None
    if re.search(r'[^0-9a-fA-FxX()|&^~<>+\-* ]', e):
        return None
    try:
        v = eval(e.replace('~', '~'))
    except Exception:
        return None
    return v if isinstance(v, int) else None


DECL_SKIP = {'typedef', 'struct', 'union', 'enum', 'const', 'volatile', 'unsigned', 'signed',
             'interface', 'EXTERN_C', 'extern', 'static', 'inline', 'FORCEINLINE', 'return',
             'if', 'for', 'while', 'sizeof', 'DECLSPEC_NOINITALL', 'CONST', 'VOID', 'void'}


def parse(path, defines):
    hdr = os.path.basename(path)
    text, macros = preprocess(read(path), defines)
    names = []  # (kind, name, value)
    values = {}
    for name, fn, val in macros:
        if SKIP_MACRO.match(name):
            continue
        if fn:
            names.append(('fmacro', name, None))
        else:
            v = int_value(val, values)
            if v is not None:
                values[name] = v
            names.append(('macro', name, v))
    # Flatten for declarations.
    flat = re.sub(r'\s+', ' ', text)
    # Enums.
    for m in re.finditer(r'\benum\s*(\w*)\s*\{([^}]*)\}\s*(\w*)', flat):
        tag, body, tname = m.group(1), m.group(2), m.group(3)
        cur = -1
        for item in body.split(','):
            item = item.strip()
            if not item:
                continue
            mm = re.match(r'(\w+)\s*(?:=\s*(.*))?$', item)
            if not mm:
                continue
            if mm.group(2) is not None:
                v = int_value(mm.group(2), values)
                cur = v if v is not None else None
            else:
                cur = cur + 1 if cur is not None else None
            if cur is not None:
                values[mm.group(1)] = cur
            names.append(('enum', mm.group(1), cur))
    # Struct/union/enum tags and typedef names.
    for m in re.finditer(r'\b(struct|union|enum)\s+(?:DECLSPEC_\w+\s*(?:\([^)]*\))?\s*)*(\w+)\s*\{',
                         flat):
        names.append(('tag', m.group(2), None))
    # typedef ... NAME[, *PNAME]; : the text of each typedef statement.
    i = 0
    while True:
        j = flat.find('typedef ', i)
        if j < 0:
            break
        depth, k = 0, j
        while k < len(flat):
            c = flat[k]
            if c in '{(':
                depth += 1
            elif c in '})':
                depth -= 1
            elif c == ';' and depth == 0:
                break
            k += 1
        stmt = flat[j:k]
        i = k + 1
        # Declarators after the last closing brace.
        tail = stmt[stmt.rfind('}') + 1:] if '}' in stmt else stmt[len('typedef '):]
        fp = re.search(r'\(\s*(?:\w+\s+)*\*\s*(\w+)\s*\)\s*\(', tail)
        if fp:
            names.append(('typedef', fp.group(1), None))
            continue
        fp = re.match(r'\s*\w[\w\s\*]*?\s(\w+)\s*\(', tail)  # typedef ULONG FN(...)
        if fp and '}' not in stmt:
            names.append(('typedef', fp.group(1), None))
            continue
        tail = re.sub(r'\[[^\]]*\]', '', tail)
        tail = re.sub(r'_\w+_\([^)]*\)', '', tail)
        parts = tail.split(',')
        for idx, p in enumerate(parts):
            ws = re.findall(r'\w+', p)
            if ws:
                names.append(('typedef', ws[-1], None))
    # Functions: NAME ( after a calling convention or a return type at the
    # start of a declaration.
    for m in re.finditer(r'\b(?:WMIAPI|EVNTAPI|TDHAPI|WINAPI|__stdcall|NTAPI|TDH_INLINE|'
                         r'EVNTPROV_PFORCEINLINE|FORCEINLINE|__inline|__cdecl|EXTERN_C|EVNTCONS_INLINE)\s+(?:\w+\s+)*?\*?\s*(\w+)\s*\(',
                         flat):
        names.append(('function', m.group(1), None))
    for m in re.finditer(r'\bEXTERN_C\s+const\s+(?:IID|CLSID)\s+(\w+)', flat):
        names.append(('guid', m.group(1), None))
    for m in re.finditer(r'\bEXTERN_GUID\s*\(\s*(\w+)', flat):
        names.append(('guid', m.group(1), None))
    for m in re.finditer(r'\bDEFINE_GUID\s*\(\s*(\w+)', flat):
        names.append(('guid', m.group(1), None))
    for m in re.finditer(r'\binterface\s+(\w+)\s*[:{]|\bMIDL_INTERFACE\s*\([^)]*\)\s*(\w+)',
                         flat):
        names.append(('interface', m.group(1) or m.group(2), None))
    # Keep public ones, first occurrence.
    seen, out = set(), []
    for kind, name, v in names:
        if name in seen or re.match(r'^(_[a-z]|__|_tlg|_TLG|_Tlg|tlg)', name) or name in DECL_SKIP:
            continue
        if name.startswith('_') and kind not in ('tag',):
            if kind != 'macro' and kind != 'fmacro':
                continue
        seen.add(name)
        out.append((kind, hdr, name, v))
    return out


def all_names(dirs):
    defines = dict(CONFIG)
    res = []
    for h in HEADERS:
        for d in dirs:
            p = os.path.join(d, h)
            if os.path.exists(p):
                res += parse(p, defines)
                break
        else:
            sys.exit('sdk_names.py: %s not found in %s' % (h, ':'.join(dirs)))
    seen, out = set(), []
    for r in res:
        if r[2] not in seen:
            seen.add(r[2])
            out.append(r)
    return out


# Which petw header declares each SDK header's names (C++-only ones too).
PETW_INCLUDE = {
    'TraceLoggingActivity.h': ['TraceLoggingProvider.h', 'TraceLoggingActivity.h'],
}


def missing(dirs, cc):
    names = all_names(dirs)
    res = []
    by_hdr = {}
    for kind, hdr, name, v in names:
        by_hdr.setdefault(hdr, []).append((kind, name, v))
    for hdr, items in by_hdr.items():
        incs = PETW_INCLUDE.get(hdr, [hdr])
        cpp = hdr in ('TraceLoggingActivity.h',)
        with tempfile.TemporaryDirectory() as t:
            src = os.path.join(t, 'x.cpp' if cpp else 'x.c')
            with open(src, 'w') as f:
                f.write('#include <windows.h>\n')
                for i in incs:
                    f.write('#include <%s>\n' % i)
            base = cc + (['-x', 'c++'] if cpp else [])
            toks, macs = set(), set()
            for uni in ([], ['-DUNICODE', '-D_UNICODE']):
                r = subprocess.run(base + uni + ['-E', src], capture_output=True, text=True)
                if r.returncode:
                    sys.stderr.write(r.stderr)
                    res += [(k, hdr, n, 'header missing') for k, n, _ in items]
                    break
                toks |= set(re.findall(r'\b[A-Za-z_]\w*\b', r.stdout))
                r = subprocess.run(base + uni + ['-E', '-dM', src], capture_output=True, text=True)
                macs |= set(re.findall(r'#define (\w+)', r.stdout))
            else:
                for k, n, _ in items:
                    if n not in macs and n not in toks:
                        res.append((k, hdr, n, ''))
    return names, res


# Names petw leaves out on purpose, and why (printed by `missing` as such,
# left out of the generated checks).
LEFT_OUT = {
    # TraceLoggingProvider.h's build hooks: a program defines them before
    # including the header to redirect the provider calls, which petw's
    # TraceLogging cannot honour (it would ignore them silently).
    'TLG_EVENT_REGISTER': 'TraceLogging build hook',
    'TLG_EVENT_UNREGISTER': 'TraceLogging build hook',
    'TLG_EVENT_SET_INFORMATION': 'TraceLogging build hook',
    'TLG_EVENT_WRITE_EX': 'TraceLogging build hook',
    'TLG_EVENT_WRITE_TRANSFER': 'TraceLogging build hook',
    'TLG_HAVE_EVENT_SET_INFORMATION': 'TraceLogging build hook',
    'TLG_PAGED_CODE': 'TraceLogging kernel-mode hook',
    'TLG_NONPAGED_SEGMENT': 'TraceLogging kernel-mode section',
    'TLG_PAGED_SEGMENT': 'TraceLogging kernel-mode section',
    'TLG_METADATA_SEGMENT_BASE': 'TraceLogging metadata section',
    'TLG_INLINE': 'TraceLogging internal', 'TLG_PFORCEINLINE': 'TraceLogging internal',
    'TLG_NULL': 'TraceLogging internal', 'TLG_DEBUG': 'TraceLogging internal',
    'TLG_RAISEASSERTIONFAILURE': 'TraceLogging internal',
    '_TraceLoggingMetadata_t': 'TraceLogging internal',
    # TraceLoggingActivity.h: the class templates' parameter and member names.
    'Created': 'member', 'Started': 'member', 'Stopped': 'member', 'Destroyed': 'member',
    'State': 'member', 'provider': 'template parameter', 'keyword': 'template parameter',
    'level': 'template parameter', 'TlgReflectorTag': 'template parameter',
    'BaseTy': 'member',
    # The SDK's own guard macros.
    'EVNTCONS_INLINE': None,
}
# Names the SDK declares as one kind and petw as another (both usable alike).
KIND = {
    'TraceLoggingSetInformation': 'function', 'TraceLoggingFunction': 'fmacro',
}


def public(names):
    out = []
    for kind, hdr, name, v in names:
        if name in LEFT_OUT and LEFT_OUT[name]:
            continue
        if 'must_not_be_a_functionLike_macro' in name:
            continue
        out.append((KIND.get(name, kind), hdr, name, v))
    return out


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    cmd, dirs = sys.argv[1], sys.argv[2].split(':')
    if cmd == 'list':
        for kind, hdr, name, v in all_names(dirs):
            print('%s\t%s\t%s\t%s' % (kind, hdr, name, '' if v is None else hex(v)))
    elif cmd == 'missing':
        cc = sys.argv[sys.argv.index('--') + 1:]
        names, res = missing(dirs, cc)
        for kind, hdr, name, why in res:
            if name in LEFT_OUT or 'must_not_be_a_functionLike_macro' in name:
                why = 'left out: %s' % (LEFT_OUT.get(name) or 'SDK internal')
            print('%s\t%s\t%s\t%s' % (kind, hdr, name, why))
        sys.stderr.write('%d names, %d missing\n' % (len(names), len(res)))
    elif cmd == 'generate':
        generate(public(all_names(dirs)))
    else:
        sys.exit(__doc__)


def gen_int(v):
    return '0x%XULL' % v if v > 9 else '%d' % v


def generate(names):
    print(GEN_HEAD)
    sections = [
        ('macro', 'value', 'PETW_SDK_VALUE(header, name, value): an integer macro or enum constant'),
        ('function', None, 'PETW_SDK_FUNCTION(header, name): a function (its address is taken)'),
        ('typedef', None, 'PETW_SDK_TYPE(header, name): a type name'),
        ('guid', None, 'PETW_SDK_GUID(header, name): a GUID or IID object'),
    ]
    for kind, _, title in sections:
        print('\n/* %s */' % title)
        print('#ifdef PETW_SDK_%s' % title.split('(')[0][len('PETW_SDK_'):])
        for k, hdr, name, v in names:
            h = hdr.replace('.', '_')
            if kind == 'macro' and k in ('macro', 'enum') and v is not None:
                print('PETW_SDK_VALUE(%s, %s, %s)' % (h, name, gen_int(v)))
            elif kind == k and kind != 'macro':
                print('PETW_SDK_%s(%s, %s)' % (
                    {'function': 'FUNCTION', 'typedef': 'TYPE', 'guid': 'GUID'}[kind], h, name))
        print('#endif')
    # Macros without an integer value: defined at all (per header; C++-only
    # headers' in C++ only).
    by_hdr = {}
    for k, hdr, name, v in names:
        if k == 'fmacro' or (k == 'macro' and v is None):
            by_hdr.setdefault(hdr, []).append(name)
    print('\n/* The other macros: defined at all. */')
    for hdr, ns in by_hdr.items():
        cond = ' || \\\n    '.join('!defined(%s)' % n for n in ns)
        guard = 'defined(__cplusplus) && ' if hdr == 'TraceLoggingActivity.h' else ''
        print('#if %s(%s)' % (guard, cond))
        print('#error "a macro of %s is missing (tools/sdk_names.py missing names it)"' % hdr)
        print('#endif')


GEN_HEAD = '''/* etw_sdk_names.h - the public names of the Windows SDK's ETW headers
 * (10.0.22000: evntprov.h, evntrace.h, evntcons.h, tdh.h, relogger.h,
 * TraceLoggingProvider.h, TraceLoggingActivity.h, winmeta.h, wmistr.h) that
 * petw's headers declare: each integer macro and enum constant with its
 * value, each function, type and GUID, and the other macros.
 * test/windows/test_sdk_names.c checks petw's headers against the list, in C and
 * C++. Generated, not edited: to regenerate from the SDK's headers,
 *     tools/sdk_names.py generate SDK_INCLUDE_DIR > test/windows/etw_sdk_names.h
 * and clang-format -i it
 * (see tools/sdk_names.py, which also lists the names left out and why).
 * Facts about the SDK (names and values), not its text. */'''

if __name__ == '__main__':
    main()
