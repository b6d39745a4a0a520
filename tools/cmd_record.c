/* cmd_record.c - `petw record -p PROVIDER... [-o FILE.etl] -- CMD ARGS...`:
 * a shared session for the run of one command, as `wpr -start`, the
 * command, `wpr -stop` would be. The command runs as a child of petw with
 * its environment; Ctrl-C reaches it, and the session is stopped (its file
 * finished) once it has exited. */
#include <inttypes.h>
#include <string.h>

#include "tool.h"
#include "tool_session.h"

static const char record_usage[] =
    "usage: petw record -p PROVIDER[:KEYWORDS[:LEVEL]]... [-o FILE.etl] -- CMD ARGS...\n"
    "Starts a shared session (petw-record-PID) writing FILE.etl (default\n"
    "petw-record.etl), enables the providers, runs CMD, stops the session when\n"
    "CMD exits and prints a summary; exits with CMD's exit status (128+N when\n"
    "signal N ended it). At least one -p is needed. PROVIDER, KEYWORDS and LEVEL\n"
    "are as for `petw start`. Ctrl-C (SIGINT) reaches CMD; the session is then\n"
    "stopped. Providers in any process of this user, CMD's children too, write\n"
    "into the session while it runs.\n";

int cmd_record(int argc, char **argv)
{
    static provider_spec providers[MAX_ENABLE];
    int np = 0, cmd = -1;
    const char *file = "petw-record.etl";
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--")) {
            cmd = i + 1;
            break;
        }
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(record_usage, stdout);
            return 0;
        }
        if (strcmp(a, "-o") && strcmp(a, "-p")) {
            fprintf(stderr, "petw: %s '%s' (the command goes after --)\n%s",
                    a[0] == '-' ? "unknown option" : "unexpected argument", a, record_usage);
            return 2;
        }
        if (i + 1 >= argc) {
            fprintf(stderr, "petw: option '%s' needs a value\n", a);
            return 2;
        }
        const char *v = argv[++i];
        if (!strcmp(a, "-o"))
            file = v;
        else if (np == MAX_ENABLE) {
            fprintf(stderr, "petw: more than 32 providers at '%s'\n", v);
            return 2;
        } else if (provider_spec_parse(v, &providers[np++]) != 0)
            return 2;
    }
    if (cmd < 0 || cmd >= argc) {
        fprintf(stderr, "petw: record: %s\n%s",
                cmd < 0 ? "no command: put it after --" : "no command after --", record_usage);
        return 2;
    }
    if (np == 0) {
        fprintf(stderr, "petw: record: no provider (-p); at least one is needed\n%s", record_usage);
        return 2;
    }

    static char path[PETW_MAX_NAME];
    char name[64];
    if (absolute_path(file, path, sizeof(path)) != 0)
        return 1;
    snprintf(name, sizeof(name), "petw-record-%" PRIu32, tool_getpid());
    petw_session_config cfg;
    petw_session_config_init(&cfg);
    cfg.name = name;
    cfg.file_path = path;
    cfg.log_file_mode = PETW_MODE_SEQUENTIAL;
    petw_session_handle h;
    int rc = petw_shared_start(&cfg, &h);
    if (rc != 0) {
        fprintf(stderr, "petw: cannot start a session writing %s: %s\n", path, petw_strerror(rc));
        return 1;
    }
    if (enable_providers(h, providers, np) != 0) {
        petw_shared_stop(h, NULL);
        return 1;
    }

    int not_found = 0;
    int status = run_command(argv + cmd, &not_found);

    petw_session_stats st;
    memset(&st, 0, sizeof(st));
    rc = petw_shared_stop(h, &st);
    if (rc != 0 && rc != PETW_EIO) {
        fprintf(stderr, "petw: cannot stop session '%s': %s\n", name, petw_strerror(rc));
        return 1;
    }
    fflush(stdout); /* the command's output came first */
    printf("Recorded '%s' in session '%s'", argv[cmd], name);
    if (status >= 0)
        printf(", exit status %d", status);
    else
        printf(" (it did not run)");
    printf(".\n");
    print_final_stats(&st);
    fflush(stdout);
    if (rc == PETW_EIO) {
        fprintf(stderr, "petw: some buffers could not be written: %s\n", petw_strerror(rc));
        return status > 0 ? status : 1;
    }
    if (status < 0)
        return not_found ? 127 : 126;
    return status;
}
