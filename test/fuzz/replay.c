/* SPDX-License-Identifier: MIT */
/* Runs a fuzz target over files (a corpus) without libFuzzer, so the
 * regular test suite exercises every target on its seeds and regressions.
 * Each argument is a file or a directory; a directory's files are run in
 * name order (not its subdirectories, hidden files or *.md notes). A path
 * that cannot be read is an error: a regression that silently stops
 * running is no regression test. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <dirent.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "replay: cannot open %s\n", path);
        return -1;
    }
    size_t cap = 4096, got = 0;
    unsigned char *buf = malloc(cap);
    for (;;) {
        if (!buf) {
            fclose(f);
            return -1;
        }
        got += fread(buf + got, 1, cap - got, f);
        if (got < cap)
            break;
        unsigned char *g = realloc(buf, cap * 2);
        if (!g)
            free(buf);
        buf = g;
        cap *= 2;
    }
    int err = ferror(f);
    fclose(f);
    if (err) {
        fprintf(stderr, "replay: cannot read %s\n", path);
        free(buf);
        return -1;
    }
    /* An exact-size copy, so ASan sees any read past the input. */
    unsigned char *exact = malloc(got ? got : 1);
    if (!exact) {
        free(buf);
        return -1;
    }
    memcpy(exact, buf, got);
    free(buf);
    LLVMFuzzerTestOneInput(exact, got);
    free(exact);
    return 0;
}

static int skipped(const char *name)
{
    size_t n = strlen(name);
    return name[0] == '.' || (n >= 3 && !strcmp(name + n - 3, ".md"));
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Runs every file of `dir`; returns how many, or -1. */
static int run_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "replay: cannot open directory %s\n", dir);
        return -1;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (skipped(e->d_name))
            continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 64;
            char **g = realloc(names, cap * sizeof(*g));
            if (!g)
                break;
            names = g;
        }
        size_t len = strlen(dir) + strlen(e->d_name) + 2;
        names[n] = malloc(len);
        if (!names[n])
            break;
        snprintf(names[n], len, "%s/%s", dir, e->d_name);
        n++;
    }
    closedir(d);
    if (n)
        qsort(names, n, sizeof(*names), by_name);
    int count = 0;
    for (size_t i = 0; i < n; i++) {
        struct stat st;
        if (count >= 0 && stat(names[i], &st) == 0 && S_ISREG(st.st_mode)) {
            if (run_file(names[i]) != 0)
                count = -1;
            else
                count++;
        }
        free(names[i]);
    }
    free(names);
    return count;
}

int main(int argc, char **argv)
{
    int n = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) != 0) {
            fprintf(stderr, "replay: no such file or directory: %s\n", argv[i]);
            return 1;
        }
        int k = S_ISDIR(st.st_mode) ? run_dir(argv[i]) : (run_file(argv[i]) == 0 ? 1 : -1);
        if (k < 0)
            return 1;
        n += k;
    }
    printf("replayed %d inputs\n", n);
    return n > 0 ? 0 : 1;
}
