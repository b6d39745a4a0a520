/* Runs a fuzz target over files (a corpus) without libFuzzer, so the
 * regular test suite exercises every target on its seeds. */
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int main(int argc, char **argv)
{
    int n = 0;
    for (int i = 1; i < argc; i++) {
        FILE *f = fopen(argv[i], "rb");
        if (!f)
            continue;
        fseek(f, 0, SEEK_END);
        long sz = ftell(f);
        fseek(f, 0, SEEK_SET);
        unsigned char *buf = malloc(sz > 0 ? (size_t)sz : 1);
        size_t got = buf ? fread(buf, 1, (size_t)sz, f) : 0;
        fclose(f);
        if (!buf)
            return 1;
        LLVMFuzzerTestOneInput(buf, got);
        free(buf);
        n++;
    }
    printf("replayed %d inputs\n", n);
    return n > 0 ? 0 : 1;
}
