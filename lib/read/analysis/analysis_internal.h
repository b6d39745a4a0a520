/* analysis_internal.h - what the analysis module's files share.
 *
 * Allowed dependencies: common/, consume/, decode/, libdw.
 */
#ifndef PETW_ANALYSIS_INTERNAL_H
#define PETW_ANALYSIS_INTERNAL_H

#include "../../base/common/common.h"
#include "petw/analysis.h"

/* Interned strings: each distinct text stored once, alive until freed. */
typedef struct petw__strings {
    char **slots; /* open addressing */
    uint32_t cap, count;
} petw__strings;

/* `s` interned (NULL when memory runs out). */
const char *petw__strings_intern(petw__strings *t, const char *s);
/* `symbol` demangled (C++ and Rust's legacy mangling, when `demangle`),
 * interned. */
const char *petw__strings_demangle(petw__strings *t, const char *symbol, int demangle);
void petw__strings_free(petw__strings *t);

#endif /* PETW_ANALYSIS_INTERNAL_H */
