/* SPDX-License-Identifier: MIT */
/* tool_help.c - the petw command's help, from one source: each command's
 * --help text (a usage line, a description, sections of "  TERM  text"
 * entries, as the command files write them), its one-line summary and its
 * examples. `petw --help`, `petw COMMAND --help`, `petw help COMMAND`, the
 * usage errors, the man pages (`petw --help-man PAGE`: roff, written at
 * build time) and the bash completion (`petw --help-completion`: its
 * commands, options and option values read from the same texts) all come
 * from here, so they cannot disagree. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "output/output_buf.h"
#include "tool.h"
#include "tool_session.h"

/* ---- the text of `petw --help`, and petw(1) ---- */

static const char main_head[] =
    "usage: petw COMMAND [ARGS...]\n"
    "       petw help COMMAND\n"
    "       petw --version\n"
    "petw records, reads and analyses event traces in the ETL format of Event\n"
    "Tracing for Windows: the events of providers written with petw's library\n"
    "(ETW's, TraceLogging's and EventSource's APIs), the kernel's (the NT Kernel\n"
    "Logger's classes, from perf events on Linux), and .etl files recorded on\n"
    "Windows (WPR, xperf, PerfView). `petw COMMAND --help` (or -h) describes a\n"
    "command.\n"
    "Commands:\n";
static const char main_tail[] =
    "Options:\n"
    "  -h, --help             this text\n"
    "  --version              petw's version\n"
    "Environment:\n"
    "  PETW_RUNTIME_DIR       where shared sessions meet (default\n"
    "                         $XDG_RUNTIME_DIR/petw, else /tmp/petw-UID): a\n"
    "                         directory of the user's, mode 0700, else sessions\n"
    "                         fail with \"permission denied\"\n"
    "  PETW_MANIFEST_PATH     more instrumentation manifests for decoding (paths\n"
    "                         separated by ':')\n"
    "  DEBUGINFOD_URLS        debuginfod servers the analysis asks for symbols\n"
    "Exit status: 0 on success, 1 when something failed, 2 for a usage error;\n"
    "`petw record` exits with its command's status.\n";
static const char main_examples[] =
    "petw record --kernel profile,cswitch,image --stacks profile -o app.etl -- ./app\n"
    "records ./app's CPU samples with call stacks\n"
    "petw report cpu app.etl\n"
    "where ./app's time went, by function\n"
    "petw convert app.etl --to perfetto -o app.pftrace\n"
    "its timeline, for ui.perfetto.dev\n";

/* The whole --help text of `c` (NULL: petw itself) in `b`. */
static void help_text(const tool_command *c, sbuf *b)
{
    b->len = 0;
    if (c) {
        for (const char *const *p = c->help; *p; p++)
            sbuf_puts(b, *p);
    } else {
        sbuf_puts(b, main_head);
        for (size_t i = 0; i < tool_command_count; i++) {
            char line[160];
            snprintf(line, sizeof(line), "  %-21s  %s\n", tool_commands[i].name,
                     tool_commands[i].summary);
            sbuf_puts(b, line);
        }
        sbuf_puts(b, main_tail);
    }
    sbuf_putc(b, 0);
    b->len--;
}

static const char *examples_of(const tool_command *c)
{
    return c ? c->examples : main_examples;
}

int help_print(const tool_command *c, FILE *f)
{
    sbuf b = {0};
    help_text(c, &b);
    if (b.failed) {
        sbuf_free(&b);
        fprintf(stderr, "petw: %s\n", petw_strerror(PETW_ENOMEM));
        return 1;
    }
    fputs(b.data, f);
    const char *e = examples_of(c);
    if (e && *e) {
        fputs("Examples:\n", f);
        while (*e) {
            size_t n = strcspn(e, "\n");
            fprintf(f, "  %.*s\n", (int)n, e);
            e += n + (e[n] == '\n');
            n = strcspn(e, "\n");
            fprintf(f, "      %.*s\n", (int)n, e);
            e += n + (e[n] == '\n');
        }
    }
    sbuf_free(&b);
    return 0;
}

void help_synopsis(const char *text, FILE *f)
{
    const char *p = text, *cmd = NULL;
    size_t cmd_len = 0;
    /* The usage lines: the first, and those indented after it. */
    do {
        size_t n = strcspn(p, "\n");
        fprintf(f, "%.*s\n", (int)n, p);
        p += n + (p[n] == '\n');
    } while (*p == ' ');
    if (!strncmp(text, "usage: petw ", 12)) {
        cmd = text + 12;
        cmd_len = strcspn(cmd, " \n");
    }
    if (cmd && tool_command_find_n(cmd, cmd_len))
        fprintf(f, "`petw %.*s --help` describes every option.\n", (int)cmd_len, cmd);
}

int command_usage_error(const char *name, const char *fmt, const char *arg)
{
    const tool_command *c = tool_command_find(name);
    fputs("petw: ", stderr);
    fprintf(stderr, fmt, arg);
    fputc('\n', stderr);
    if (c)
        help_synopsis(c->help[0], stderr);
    return 2;
}

/* ---- the text's parts ---- */

/* One line of a help text: its kind, and where its words start. */
enum { LINE_USAGE, LINE_PROSE, LINE_HEADING, LINE_ENTRY, LINE_MORE };

typedef struct line {
    const char *s; /* the line, without indentation */
    int len, kind;
    int term_len; /* LINE_ENTRY: the term's length, before two spaces */
} line;

typedef struct parsed {
    line *lines;
    int n;
} parsed;

/* Splits `text` into lines and classifies them. Returns 0 or -1. */
static int parse_help(const char *text, parsed *out)
{
    int cap = 1;
    for (const char *p = text; *p; p++)
        cap += *p == '\n';
    out->lines = calloc((size_t)cap, sizeof(line));
    out->n = 0;
    if (!out->lines)
        return -1;
    int in_usage = 1, in_section = 0;
    for (const char *p = text; *p;) {
        int len = (int)strcspn(p, "\n"), indent = (int)strspn(p, " ");
        line *l = &out->lines[out->n++];
        l->s = p + indent;
        l->len = len - indent;
        if (out->n == 1 && !strncmp(p, "usage: ", 7)) {
            l->s = p + 7, l->len = len - 7, l->kind = LINE_USAGE;
        } else if (in_usage && indent > 0) {
            l->kind =
                l->s[0] == 'p' && !strncmp(l->s, "petw", 4) && indent <= 7 ? LINE_USAGE : LINE_MORE;
        } else if (indent == 0 && len > 0 && p[len - 1] == ':' && p[len] == '\n' &&
                   !strncmp(p + len + 1, "  ", 2) && p[len + 3] != ' ') {
            /* A heading: "Options:" before its entries. */
            in_usage = 0, in_section = 1, l->kind = LINE_HEADING;
        } else if (indent == 0) {
            in_usage = 0, in_section = 0, l->kind = LINE_PROSE;
        } else if (in_section && indent == 2) {
            l->kind = LINE_ENTRY;
            const char *gap = strstr(l->s, "  ");
            l->term_len = gap && gap < l->s + l->len ? (int)(gap - l->s) : l->len;
        } else {
            l->kind = LINE_MORE;
        }
        p += len + (p[len] == '\n');
    }
    return 0;
}

/* ---- roff ---- */

/* `s` (n bytes) as roff text: backslashes and leading dots escaped, an
 * option's '-' as \-, `code` in bold. */
static void roff_text(FILE *f, const char *s, int n, int bold_all)
{
    int code = 0, option = 0; /* in `code`; in an option's name (--kernel-scope) */
    if (n > 0 && (s[0] == '.' || s[0] == '\''))
        fputs("\\&", f);
    if (bold_all)
        fputs("\\fB", f);
    for (int i = 0; i < n; i++) {
        char ch = s[i];
        if (ch == '\\')
            fputs("\\e", f);
        else if (ch == '`' && !bold_all) {
            fputs(code ? "\\fR" : "\\fB", f);
            code = !code;
        } else if (ch == '-' && (option || i == 0 || strchr(" [(|,=/`", s[i - 1]))) {
            fputs("\\-", f); /* a minus sign, not a hyphen: options copy as typed */
            option = 1;
        } else {
            fputc(ch, f);
            option = option && isalnum((unsigned char)ch);
        }
    }
    if (code || bold_all)
        fputs("\\fR", f);
}

/* The rest of an entry's line after its term: the description. */
static void roff_entry_desc(FILE *f, const line *l)
{
    const char *d = l->s + l->term_len;
    int n = l->len - l->term_len;
    while (n > 0 && *d == ' ')
        d++, n--;
    if (n > 0) {
        roff_text(f, d, n, 0);
        fputc('\n', f);
    }
}

/* The section a heading opens: OPTIONS for "Options (as ...):", VIEWS... */
static void roff_heading(FILE *f, const line *l, int *options_seen)
{
    int word = (int)strcspn(l->s, " :");
    int is_options = word == 7 && !strncmp(l->s, "Options", 7);
    if (!is_options || !*options_seen) {
        fputs(".SH ", f);
        for (int i = 0; i < word; i++)
            fputc(toupper((unsigned char)l->s[i]), f);
        fputc('\n', f);
    }
    *options_seen |= is_options;
    if (word < l->len - 1) { /* more than a word: say it */
        fputs(".PP\n", f);
        roff_text(f, l->s, l->len - 1, 0);
        fputs(".\n", f);
    }
}

static void roff_examples(FILE *f, const char *e)
{
    fputs(".SH EXAMPLES\n", f);
    while (e && *e) {
        int n = (int)strcspn(e, "\n");
        const char *cmd = e;
        e += n + (e[n] == '\n');
        int m = (int)strcspn(e, "\n");
        fputs(".PP\n", f);
        roff_text(f, e, m, 0);
        fputs(":\n.PP\n.RS 4\n.nf\n", f);
        roff_text(f, cmd, n, 1);
        fputs("\n.fi\n.RE\n", f);
        e += m + (e[m] == '\n');
    }
}

static void roff_see_also(FILE *f, const tool_command *c)
{
    fputs(".SH SEE ALSO\n", f);
    if (!c) {
        for (size_t i = 0; i < tool_command_count; i++)
            fprintf(f, "\\fBpetw\\-%s\\fR(1)%s\n", tool_commands[i].name,
                    i + 1 < tool_command_count ? "," : "");
        return;
    }
    fputs("\\fBpetw\\fR(1)", f);
    for (const char *p = c->see_also; p && *p;) {
        int n = (int)strcspn(p, " ");
        fprintf(f, ",\n\\fBpetw\\-%.*s\\fR(1)", n, p);
        p += n + (p[n] == ' ');
    }
    fputc('\n', f);
}

int help_man(const char *page, FILE *f)
{
    const tool_command *c = NULL;
    if (strcmp(page, "petw") != 0) {
        const char *name = !strncmp(page, "petw-", 5) ? page + 5 : page;
        if (!(c = tool_command_find(name))) {
            fprintf(stderr, "petw: no manual page '%s'\n", page);
            return 2;
        }
    }
    sbuf b = {0};
    parsed ps;
    help_text(c, &b);
    if (b.failed || parse_help(b.data, &ps) != 0) {
        sbuf_free(&b);
        fprintf(stderr, "petw: %s\n", petw_strerror(PETW_ENOMEM));
        return 1;
    }
    fprintf(f, ".\\\" The petw command's help as a manual page, written by `petw --help-man`.\n");
    fputs(".TH \"PETW", f);
    for (const char *p = c ? c->name : ""; *p; p++)
        fprintf(f, "%s%c", p == c->name ? "\\-" : "", *p == '-' ? '-' : toupper((unsigned char)*p));
    fprintf(f, "\" 1 \"\" \"petw %s\" \"petw Manual\"\n", tool_version);
    fputs(".SH NAME\n", f);
    fprintf(f, "petw%s%s \\- ", c ? "\\-" : "", c ? c->name : "");
    const char *summary = c ? c->summary : "record, read and analyse ETW-compatible event traces";
    roff_text(f, summary, (int)strlen(summary), 0);
    fputs("\n.SH SYNOPSIS\n.nf\n", f);
    int i = 0;
    for (; i < ps.n && (ps.lines[i].kind == LINE_USAGE || ps.lines[i].kind == LINE_MORE); i++) {
        const line *l = &ps.lines[i];
        if (l->kind == LINE_MORE)
            fputs("    ", f);
        roff_text(f, l->s, l->len, 0);
        fputc('\n', f);
    }
    fputs(".fi\n", f);
    int section = 0, options_seen = 0, last = -1;
    fputs(".SH DESCRIPTION\n", f);
    if (i < ps.n && ps.lines[i].kind != LINE_PROSE) { /* no prose: the summary */
        fputs(".PP\n", f);
        fputc(toupper((unsigned char)summary[0]), f);
        roff_text(f, summary + 1, (int)strlen(summary + 1), 0);
        fputs(".\n", f);
    }
    for (; i < ps.n; i++) {
        const line *l = &ps.lines[i];
        if (l->kind == LINE_HEADING) {
            roff_heading(f, l, &options_seen);
            section = 1;
        } else if (l->kind == LINE_ENTRY) {
            fputs(".TP\n", f);
            roff_text(f, l->s, l->term_len, 1);
            fputc('\n', f);
            roff_entry_desc(f, l);
        } else if (l->kind == LINE_PROSE && last != LINE_PROSE) {
            fputs(".PP\n", f);
            roff_text(f, l->s, l->len, 0);
            fputc('\n', f);
        } else {
            roff_text(f, l->s, l->len, 0);
            fputc('\n', f);
        }
        last = l->kind == LINE_MORE ? last : l->kind;
    }
    (void)section;
    roff_examples(f, examples_of(c));
    roff_see_also(f, c);
    free(ps.lines);
    sbuf_free(&b);
    return 0;
}

/* ---- bash completion ---- */

/* `s` (NUL-terminated in `b`, which ends with a NUL when not empty). */
static const char *sbuf_text(sbuf *b)
{
    sbuf_putc(b, 0);
    b->len--;
    return b->failed ? "" : b->data;
}

/* Adds the word w (n bytes) to the space-separated `set` unless it is there. */
static void word_add(sbuf *set, const char *w, int n)
{
    char word[64];
    snprintf(word, sizeof(word), "%.*s", n, w);
    n = (int)strlen(word);
    for (const char *p = sbuf_text(set); (p = strstr(p, word)) != NULL; p++)
        if ((p == set->data || p[-1] == ' ') && (p[n] == ' ' || !p[n]))
            return;
    if (set->len)
        sbuf_putc(set, ' ');
    sbuf_puts(set, word);
}

/* An option and the values a help text lists for it. */
typedef struct option_values {
    char option[48];
    sbuf values;
} option_values;
#define MAX_VALUED 32

/* The options a help text names (in its usage lines and its entries'
 * terms) into `opts`, and the values it lists for them ("--format
 * text|csv|json") into `vals` (`*nvals` of them). */
static void options_of(const parsed *ps, sbuf *opts, option_values *vals, int *nvals)
{
    for (int i = 0; i < ps->n; i++) {
        const line *l = &ps->lines[i];
        int usage = l->kind == LINE_USAGE ||
                    (l->kind == LINE_MORE && i > 0 && ps->lines[i - 1].kind == LINE_USAGE);
        int n = l->kind == LINE_ENTRY ? l->term_len : usage ? l->len : 0;
        const char *s = l->s;
        for (int k = 0; k < n;) {
            if (s[k] != '-' || (k > 0 && !strchr(" [(|,", s[k - 1]))) {
                k++;
                continue;
            }
            int start = k;
            while (k < n && (isalnum((unsigned char)s[k]) || s[k] == '-'))
                k++;
            int len = k - start;
            if (len < 2 || !strncmp(s + start, "--", (size_t)len))
                continue;
            word_add(opts, s + start, len);
            /* Its values, when the text lists them: lowercase words and '|'. */
            if (k + 1 < n && s[k] == ' ' && islower((unsigned char)s[k + 1])) {
                int v = k + 1, e = v;
                while (e < n && (islower((unsigned char)s[e]) || s[e] == '|'))
                    e++;
                if (e == n || strchr(" ])", s[e])) {
                    char opt[48];
                    snprintf(opt, sizeof(opt), "%.*s", len, s + start);
                    int o = 0;
                    while (o < *nvals && strcmp(vals[o].option, opt))
                        o++;
                    if (o == MAX_VALUED)
                        continue;
                    if (o == *nvals) {
                        memcpy(vals[o].option, opt, sizeof(opt));
                        vals[o].values.len = 0;
                        (*nvals)++;
                    }
                    for (int w = v; w < e; w++) {
                        int wl = (int)strcspn(s + w, "| ])");
                        wl = w + wl > e ? e - w : wl;
                        word_add(&vals[o].values, s + w, wl);
                        w += wl;
                    }
                }
                k = e;
            }
        }
    }
}

static const char completion_body[] =
    "_petw_sessions()\n"
    "{\n"
    "    petw query 2>/dev/null | sed -n 's/^Name: *//p'\n"
    "}\n"
    "\n"
    "_petw()\n"
    "{\n"
    "    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}\n"
    "    local cmd=${COMP_WORDS[1]} i v= w\n"
    "    COMPREPLY=()\n"
    "    if [[ $COMP_CWORD -eq 1 ]]; then\n"
    "        COMPREPLY=($(compgen -W \"$_petw_commands help --help --version\" -- \"$cur\"))\n"
    "        return\n"
    "    fi\n"
    "    # After `--`: the command petw record runs, then its arguments.\n"
    "    for ((i = 2; i < COMP_CWORD; i++)); do\n"
    "        if [[ ${COMP_WORDS[i]} == -- ]]; then\n"
    "            if [[ $i -eq $((COMP_CWORD - 1)) ]]; then\n"
    "                COMPREPLY=($(compgen -c -- \"$cur\"))\n"
    "            else\n"
    "                compopt -o filenames 2>/dev/null\n"
    "                COMPREPLY=($(compgen -f -- \"$cur\"))\n"
    "            fi\n"
    "            return\n"
    "        fi\n"
    "    done\n"
    "    if [[ $cmd == help ]]; then\n"
    "        [[ $COMP_CWORD -eq 2 ]] && COMPREPLY=($(compgen -W \"$_petw_commands\" -- \"$cur\"))\n"
    "        return\n"
    "    fi\n"
    "    case $prev in\n"
    "    --kernel|--stacks)\n"
    "        # A comma-separated list: its last name.\n"
    "        local done=${cur%%${cur##*,}}\n"
    "        COMPREPLY=($(compgen -P \"$done\" -W \"$_petw_kernel_groups\" -- \"${cur##*,}\"))\n"
    "        compopt -o nospace 2>/dev/null\n"
    "        return;;\n"
    "    -o|--profile|--manifest|--tmf|--symbols)\n"
    "        compopt -o filenames 2>/dev/null\n"
    "        COMPREPLY=($(compgen -f -- \"$cur\"))\n"
    "        return;;\n"
    "    esac\n"
    "    # The values an option of this command takes.\n"
    "    case $cmd in\n"
    "%s"
    "    esac\n"
    "    if [[ -n $v ]]; then\n"
    "        COMPREPLY=($(compgen -W \"$v\" -- \"$cur\"))\n"
    "        return\n"
    "    fi\n"
    "    if [[ $cur == -* ]]; then\n"
    "        w=_petw_opts_${cmd//-/_}\n"
    "        COMPREPLY=($(compgen -W \"${!w} --help\" -- \"$cur\"))\n"
    "        return\n"
    "    fi\n"
    "    case $cmd in\n"
    "    report)\n"
    "        if [[ $COMP_CWORD -eq 2 ]]; then\n"
    "            COMPREPLY=($(compgen -W \"$_petw_views\" -- \"$cur\"))\n"
    "            return\n"
    "        fi;;\n"
    "    stop|flush|enable|disable|capture-state|update|query|watch|start)\n"
    "        # The running sessions' names (some have spaces).\n"
    "        local IFS=$'\\n' s\n"
    "        COMPREPLY=($(compgen -W \"$(_petw_sessions)\" -- \"$cur\"))\n"
    "        for i in \"${!COMPREPLY[@]}\"; do\n"
    "            printf -v s '%%q' \"${COMPREPLY[i]}\"\n"
    "            COMPREPLY[i]=$s\n"
    "        done\n"
    "        return;;\n"
    "    esac\n"
    "    compopt -o filenames 2>/dev/null\n"
    "    COMPREPLY=($(compgen -f -- \"$cur\"))\n"
    "}\n"
    "complete -F _petw petw\n";

int help_completion(FILE *f)
{
    sbuf text = {0}, opts = {0}, views = {0}, cases = {0}, names = {0};
    static option_values vals[MAX_VALUED];
    int rc = 0, failed = 0;
    fputs("# bash completion for petw, written by `petw --help-completion` from the\n"
          "# command's help texts.\n",
          f);
    for (size_t i = 0; i < tool_command_count && !rc; i++) {
        const tool_command *c = &tool_commands[i];
        parsed ps;
        int nvals = 0;
        word_add(&names, c->name, (int)strlen(c->name));
        help_text(c, &text);
        if (text.failed || parse_help(text.data, &ps) != 0) {
            rc = 1;
            break;
        }
        opts.len = 0;
        options_of(&ps, &opts, vals, &nvals);
        /* The report's views: the terms of its "Views:" section. */
        for (int k = 0, in_views = 0; k < ps.n; k++) {
            const line *l = &ps.lines[k];
            if (l->kind == LINE_HEADING)
                in_views = !strncmp(l->s, "Views:", 6);
            else if (in_views && l->kind == LINE_ENTRY)
                word_add(&views, l->s, l->term_len);
        }
        free(ps.lines);
        fprintf(f, "_petw_opts_");
        for (const char *p = c->name; *p; p++)
            fputc(*p == '-' ? '_' : *p, f);
        fprintf(f, "=\"%s\"\n", sbuf_text(&opts));
        if (nvals) {
            sbuf_puts(&cases, "    ");
            sbuf_puts(&cases, c->name);
            sbuf_puts(&cases, ")\n        case $prev in\n");
            for (int k = 0; k < nvals; k++) {
                sbuf_puts(&cases, "        ");
                sbuf_puts(&cases, vals[k].option);
                sbuf_puts(&cases, ") v=\"");
                sbuf_puts(&cases, sbuf_text(&vals[k].values));
                sbuf_puts(&cases, "\";;\n");
                failed |= vals[k].values.failed;
            }
            sbuf_puts(&cases, "        esac;;\n");
        }
    }
    fprintf(f, "_petw_commands=\"%s\"\n", sbuf_text(&names));
    fprintf(f, "_petw_views=\"%s\"\n", sbuf_text(&views));
    fputs("_petw_kernel_groups=\"", f);
    for (int k = 0; system_flag_name(k); k++)
        fprintf(f, "%s%s", k ? " " : "", system_flag_name(k));
    fputs(" memory\"\n\n", f); /* the PageFault class's three groups */
    fprintf(f, completion_body, sbuf_text(&cases));
    if (failed || text.failed || opts.failed || views.failed || cases.failed || names.failed)
        rc = 1;
    if (rc)
        fprintf(stderr, "petw: %s\n", petw_strerror(PETW_ENOMEM));
    for (int k = 0; k < MAX_VALUED; k++)
        sbuf_free(&vals[k].values);
    sbuf_free(&text);
    sbuf_free(&opts);
    sbuf_free(&views);
    sbuf_free(&cases);
    sbuf_free(&names);
    return rc;
}
