/* SPDX-License-Identifier: MIT */
/* kernel.c - the NT Kernel Logger's classic (MOF) event classes as an
 * instrumentation manifest the decoder reads with the same parser as any
 * other: one provider per event class of the table (lib/base/classes/
 * kernel_class.c: its MOF name, GUID and schema).
 *
 * Allowed dependencies: common/, platform/, classes/, xxHash, expat.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../base/classes/kernel_class.h"
#include "petw/error.h"
#include "kernel.h"

int petw__kernel_schemas(petw__manifest **out)
{
    static const char head[] = "<instrumentationManifest><instrumentation><events>";
    static const char tail[] = "</events></instrumentation></instrumentationManifest>";
    size_t size = sizeof(head) + sizeof(tail);
    for (size_t k = 0; k < PETW__KC_COUNT; k++)
        size += 80 + strlen(petw__kernel_classes[k].name) + strlen(petw__kernel_classes[k].schema);
    char *xml = malloc(size);
    if (!xml)
        return PETW_ENOMEM;
    size_t at = (size_t)snprintf(xml, size, "%s", head);
    for (size_t k = 0; k < PETW__KC_COUNT; k++) {
        const petw__kernel_class *c = &petw__kernel_classes[k];
        char guid[37];
        petw_guid_format(&c->guid, guid);
        at += (size_t)snprintf(xml + at, size - at, "<provider name='%s' guid='{%s}'>%s</provider>",
                               c->name, guid, c->schema);
    }
    at += (size_t)snprintf(xml + at, size - at, "%s", tail);
    char error[200];
    int rc = petw__manifest_parse_builtin(xml, at, out, error, sizeof(error));
    free(xml);
    return rc;
}
