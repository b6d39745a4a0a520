/* SPDX-License-Identifier: MIT */
/* manifest_view.c - the public read-only view of a parsed manifest
 * (petw/manifest.h) over manifest.c's model. */
#include <string.h>

#include "../../base/common/common.h"
#include "manifest.h"
#include "petw/manifest.h"

/* The view is the model itself: the public type is never defined. */
static const petw__manifest *model(const petw_manifest *m)
{
    return (const petw__manifest *)(const void *)m;
}

int petw_manifest_parse(const void *xml, size_t size, petw_manifest **out, char *error,
                        size_t error_size)
{
    PETW__RETURN_IF(!out || (!xml && size), PETW_EINVAL);
    petw__manifest *m = NULL;
    int rc = petw__manifest_parse(xml ? xml : "", size, &m, error, error_size);
    *out = (petw_manifest *)(void *)m;
    return rc;
}

void petw_manifest_free(petw_manifest *m)
{
    petw__manifest_free((petw__manifest *)(void *)m);
}

uint32_t petw_manifest_provider_count(const petw_manifest *m)
{
    return m ? petw__manifest_provider_count(model(m)) : 0;
}

static const petw__man_provider *provider(const petw_manifest *m, uint32_t i)
{
    return m ? petw__manifest_provider(model(m), i) : NULL;
}

int petw_manifest_get_provider(const petw_manifest *m, uint32_t p, petw_manifest_provider *out)
{
    const petw__man_provider *pv = provider(m, p);
    PETW__RETURN_IF(!pv || !out, PETW_EINVAL);
    memset(out, 0, sizeof(*out));
    out->name = pv->name;
    out->symbol = pv->symbol;
    out->guid = pv->guid;
    out->event_count = pv->event_count;
    out->item_count = pv->item_count;
    out->line = pv->line;
    return 0;
}

int petw_manifest_get_item(const petw_manifest *m, uint32_t p, uint32_t i, petw_manifest_item *out)
{
    const petw__man_provider *pv = provider(m, p);
    PETW__RETURN_IF(!pv || !out || i >= pv->item_count, PETW_EINVAL);
    const petw__man_item *it = &pv->items[i];
    memset(out, 0, sizeof(*out));
    out->kind = it->kind;
    out->task = it->task;
    out->value = it->value;
    out->name = it->name;
    out->symbol = it->symbol;
    out->line = it->line;
    out->valid = !it->bad;
    return 0;
}

int petw_manifest_get_event(const petw_manifest *m, uint32_t p, uint32_t e,
                            petw_manifest_event *out)
{
    const petw__man_provider *pv = provider(m, p);
    PETW__RETURN_IF(!pv || !out || e >= pv->event_count, PETW_EINVAL);
    const petw__man_event *ev = &pv->events[e];
    memset(out, 0, sizeof(*out));
    out->id = ev->id;
    out->version = ev->version;
    out->channel = ev->channel;
    out->level = ev->level;
    out->opcode = ev->opcode;
    out->task = ev->task;
    out->keywords = ev->keywords;
    out->symbol = ev->symbol;
    out->template_id = ev->has_template ? ev->template_id : NULL;
    out->field_count = ev->has_template ? ev->field_count : 0;
    out->top_count = ev->has_template ? ev->top_count : 0;
    out->line = ev->line;
    return 0;
}

int petw_manifest_get_field(const petw_manifest *m, uint32_t p, uint32_t e, uint32_t f,
                            petw_manifest_field *out)
{
    const petw__man_provider *pv = provider(m, p);
    PETW__RETURN_IF(!pv || !out || e >= pv->event_count, PETW_EINVAL);
    const petw__man_event *ev = &pv->events[e];
    PETW__RETURN_IF(!ev->has_template || f >= ev->field_count, PETW_EINVAL);
    const petw__man_field *fl = &pv->fields[ev->first_field + f];
    memset(out, 0, sizeof(*out));
    out->name = fl->name;
    out->in_type = fl->in_type;
    out->out_type = fl->out_type;
    out->flags = fl->flags;
    out->members = fl->members;
    out->length = fl->length;
    out->count = fl->count;
    out->next = fl->next - ev->first_field;
    out->parent = UINT32_MAX;
    /* The struct holding it: the nearest earlier struct whose members
     * reach past it. */
    for (uint32_t k = f; k-- > 0;) {
        const petw__man_field *s = &pv->fields[ev->first_field + k];
        if ((s->flags & PETW__MANF_STRUCT) && s->next > ev->first_field + f) {
            out->parent = k;
            break;
        }
    }
    out->line = fl->line;
    return 0;
}
