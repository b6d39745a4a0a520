/* SPDX-License-Identifier: MIT */
/* undecorate.h - MSVC-decorated names ("?push_back@?$vector@HV?$allocator@H@std@@@std@@...")
 * shown as Windows tools show a frame's function: the qualified name with its
 * template arguments, without the parameter list or return type
 * ("std::vector<int,std::allocator<int> >::push_back").
 *
 * Allowed dependencies: common, platform. It uses neither: it reads a string
 * and writes a buffer.
 */
#ifndef PETW_PDB_UNDECORATE_H
#define PETW_PDB_UNDECORATE_H

#include <stddef.h>

/* Writes the name part of the MSVC-decorated `name` (a C string starting
 * with '?') to `out` (`cap` bytes, NUL-terminated): name fragments and their
 * back-references, templates and their arguments (types, integers),
 * constructors, destructors, operators, anonymous namespaces, functions'
 * local scopes (with the function's signature), vftables, RTTI records and
 * the compiler's other special names. The input is
 * untrusted: recursion, work and output are bounded.
 *
 * Returns the length written (< cap), or -1 when `name` is not decorated,
 * uses a form this reader does not know, is damaged, or its name would not
 * fit in `cap` bytes; the caller then shows `name` as it is. */
int petw__pdb_undecorate(const char *name, char *out, size_t cap);

#endif
