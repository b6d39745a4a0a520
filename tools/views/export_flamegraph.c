/* SPDX-License-Identifier: MIT */
/* export_flamegraph.c - `petw convert --to flamegraph`: an SVG flame graph
 * petw draws itself (one file, no external script or font): the stacks
 * merged root first (all samples, then each process, then its frames,
 * inlined functions as frames of their own), each frame as wide as its
 * samples. The script in the file zooms into a frame on click (the root
 * or "Reset zoom" goes back) and highlights the frames a search matches
 * (a regular expression), with the share of samples they hold. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analysis_tool.h"

#define WIDTH 1200
#define PAD 10
#define FRAME_H 16
#define TOP 40 /* title and controls */

typedef struct node {
    const char *name;
    uint64_t value;
    uint32_t first_child, next_sibling; /* 0: none (node 0 is the root) */
    int cold;                           /* off-CPU: drawn in blue */
} node;

typedef struct tree {
    node *nodes;
    uint32_t count, cap;
    uint32_t at; /* the node the walk is in */
    uint64_t samples;
    int failed;
} tree;

static uint32_t child(tree *t, uint32_t parent, const char *name)
{
    for (uint32_t c = t->nodes[parent].first_child; c; c = t->nodes[c].next_sibling)
        if (t->nodes[c].name == name || !strcmp(t->nodes[c].name, name))
            return c;
    if (t->count == t->cap) {
        uint32_t cap = t->cap ? 2 * t->cap : 1024;
        node *n = realloc(t->nodes, cap * sizeof(*n));
        if (!n) {
            t->failed = 1;
            return parent;
        }
        t->nodes = n;
        t->cap = cap;
    }
    uint32_t c = t->count++;
    t->nodes[c] = (node){name, 0, 0, t->nodes[parent].first_child, t->nodes[parent].cold};
    t->nodes[parent].first_child = c;
    return c;
}

static void on_frame(void *ctx, const petw_profile_location *l, const char *function,
                     const petw_source_line *line)
{
    (void)l;
    (void)line;
    tree *t = ctx;
    t->at = child(t, t->at, function);
    t->nodes[t->at].value += t->samples;
}

static void xml_text(sbuf *b, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '&':
            sbuf_puts(b, "&amp;");
            break;
        case '<':
            sbuf_puts(b, "&lt;");
            break;
        case '>':
            sbuf_puts(b, "&gt;");
            break;
        case '"':
            sbuf_puts(b, "&quot;");
            break;
        case '\'':
            sbuf_puts(b, "&apos;");
            break;
        default:
            if ((unsigned char)*s >= 0x20 || *s == '\t')
                sbuf_putc(b, *s);
        }
    }
}

/* Warm colours from the name, so a function keeps its colour everywhere;
 * blue ones off the CPU. */
static void colour(sbuf *b, const char *name, int cold)
{
    uint32_t h = 2166136261u;
    for (const char *c = name; *c; c++)
        h = (h ^ (uint8_t)*c) * 16777619u;
    char text[40];
    if (cold)
        snprintf(text, sizeof(text), "rgb(%u,%u,%u)", (h & 0x3F), 80 + ((h >> 8) % 100),
                 200 + ((h >> 16) % 55));
    else
        snprintf(text, sizeof(text), "rgb(%u,%u,%u)", 205 + (h & 0x31), 80 + ((h >> 8) % 150),
                 (h >> 16) % 60);
    sbuf_puts(b, text);
}

typedef struct drawing {
    tree *t;
    sbuf *b;
    const char *unit; /* "samples" or "us" */
    uint64_t total;
    uint32_t depth, max_depth;
} drawing;

static void measure(drawing *d, uint32_t n, uint32_t depth)
{
    if (depth > d->max_depth)
        d->max_depth = depth;
    for (uint32_t c = d->t->nodes[n].first_child; c; c = d->t->nodes[c].next_sibling)
        measure(d, c, depth + 1);
}

static void draw(drawing *d, uint32_t n, uint32_t depth, uint64_t offset)
{
    const node *nd = &d->t->nodes[n];
    double fx = (double)offset / (double)d->total, fw = (double)nd->value / (double)d->total;
    double x = PAD + fx * (WIDTH - 2 * PAD), w = fw * (WIDTH - 2 * PAD);
    if (w < 0.1) /* too narrow to see: left out (its share is in its parent) */
        return;
    int y = TOP + (int)(d->max_depth - depth) * FRAME_H;
    char text[256];
    snprintf(text, sizeof(text), "<g class=\"f\" data-x=\"%.9f\" data-w=\"%.9f\" data-d=\"%u\">",
             fx, fw, depth);
    sbuf_puts(d->b, text);
    sbuf_puts(d->b, "<title>");
    xml_text(d->b, nd->name);
    snprintf(text, sizeof(text), " (%" PRIu64 " %s, %.2f%%)</title>", nd->value, d->unit,
             100.0 * fw);
    sbuf_puts(d->b, text);
    snprintf(text, sizeof(text), "<rect x=\"%.2f\" y=\"%d\" width=\"%.2f\" height=\"%d\" fill=\"",
             x, y, w, FRAME_H - 1);
    sbuf_puts(d->b, text);
    colour(d->b, nd->name, nd->cold);
    snprintf(text, sizeof(text), "\" rx=\"2\"/><text x=\"%.2f\" y=\"%d\"></text></g>\n", x + 3,
             y + FRAME_H - 4);
    sbuf_puts(d->b, text);
    uint64_t at = offset;
    for (uint32_t c = nd->first_child; c; c = d->t->nodes[c].next_sibling) {
        draw(d, c, depth + 1, at);
        at += d->t->nodes[c].value;
    }
}

static const char script[] =
    "<script><![CDATA[\n"
    "var W="
    "1180"
    ",X0=10,fr=[].slice.call(document.querySelectorAll('g.f'));\n"
    "function nm(g){return g.querySelector('title').textContent.replace(/ \\(\\d+ \\w+, "
    "[\\d.]+%\\)$/,'');}\n"
    "function fit(g,x,w){var r=g.querySelector('rect'),t=g.querySelector('text'),n=nm(g),"
    "c=Math.floor((w-6)/7);r.setAttribute('x',x);r.setAttribute('width',w);"
    "t.setAttribute('x',x+3);t.textContent=c<3?'':n.length<=c?n:n.slice(0,c-2)+'..';}\n"
    "function show(x,w,d){fr.forEach(function(g){var fx=+g.dataset.x,fw=+g.dataset.w,"
    "fd=+g.dataset.d,e=1e-9,r=g.querySelector('rect');var inside=fd>=d?fx>=x-e&&fx+fw<=x+w+e:"
    "fx<=x+e&&fx+fw>=x+w-e;g.style.display=inside?'':'none';if(inside){var nx=fd>=d?(fx-x)/w:0,"
    "nw=fd>=d?fw/w:1;fit(g,X0+nx*W,nw*W);g.style.opacity=fd<d?0.6:1;}});}\n"
    "fr.forEach(function(g){g.addEventListener('click',function(){show(+g.dataset.x,"
    "+g.dataset.w,+g.dataset.d);document.getElementById('reset').style.display='';});});\n"
    "function reset(){show(0,1,0);document.getElementById('reset').style.display='none';}\n"
    "function search(re){var m=0,iv=[];fr.forEach(function(g){var r=g.querySelector('rect');"
    "if(!r.dataset.fill)r.dataset.fill=r.getAttribute('fill');var hit=re&&new "
    "RegExp(re).test(nm(g));"
    "r.setAttribute('fill',hit?'rgb(230,0,230)':r.dataset.fill);if(hit)iv.push([+g.dataset.x,"
    "+g.dataset.x+ +g.dataset.w]);});iv.sort(function(a,b){return a[0]-b[0];});var end=-1;"
    "iv.forEach(function(v){if(v[0]>=end){m+=v[1]-v[0];end=v[1];}else if(v[1]>end){m+=v[1]-end;"
    "end=v[1];}});document.getElementById('matched').textContent=re?'Matched: '+"
    "(100*m).toFixed(2)+'%':'';}\n"
    "document.getElementById('search').addEventListener('click',function(){"
    "var re=prompt('Search (regular expression)','');if(re!==null)search(re);});\n"
    "document.getElementById('reset').addEventListener('click',reset);\n"
    "reset();\n"
    "]]></script>\n";

int export_flamegraph(const petw_profile *p, FILE *out, const char *title, int value)
{
    tree t = {0};
    t.cap = 1024;
    t.nodes = calloc(t.cap, sizeof(*t.nodes));
    if (!t.nodes)
        return -1;
    t.count = 1;
    t.nodes[0].name = "all";
    for (uint32_t k = 0; k < petw_profile_stack_count(p) && !t.failed; k++) {
        const petw_profile_stack *s = petw_profile_stack_at(p, k);
        for (int side = 0; side < 2; side++) { /* on the CPU, then off it */
            int v = value == VALUE_BOTH ? (side ? VALUE_OFFCPU : VALUE_SAMPLES) : value;
            if (value != VALUE_BOTH && side)
                break;
            uint64_t weight = stack_value(p, s, v);
            if (value == VALUE_BOTH && v == VALUE_SAMPLES)
                weight = stack_value(p, s, VALUE_BOTH) - s->offcpu / 10;
            if (!weight)
                continue;
            char buf[32];
            t.samples = weight;
            t.nodes[0].value += weight;
            t.at = child(&t, 0, process_label(p, s->pid, buf, sizeof(buf)));
            if (t.nodes[t.at].name == buf) /* "pid N" lives in buf: a lasting name */
                t.nodes[t.at].name = "[unknown process]";
            t.nodes[t.at].value += weight;
            if (v == VALUE_OFFCPU) {
                t.at = child(&t, t.at, "[off-CPU]");
                t.nodes[t.at].cold = 1;
                t.nodes[t.at].value += weight;
            }
            stack_walk_root_first(p, s, 0, on_frame, &t);
        }
    }
    sbuf b = {0};
    const char *unit = value == VALUE_SAMPLES ? "samples" : "us";
    drawing d = {&t, &b, unit, t.nodes[0].value ? t.nodes[0].value : 1, 0, 0};
    measure(&d, 0, 0);
    int height = TOP + (int)(d.max_depth + 1) * FRAME_H + 2 * PAD;
    char text[512];
    snprintf(text, sizeof(text),
             "<?xml version=\"1.0\" standalone=\"no\"?>\n"
             "<svg version=\"1.1\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
             "xmlns=\"http://www.w3.org/2000/svg\">\n"
             "<style>text{font-family:Verdana,sans-serif;font-size:12px;fill:#000}"
             "g.f:hover rect{stroke:#000;stroke-width:0.5}g.f{cursor:pointer}"
             ".c{cursor:pointer;fill:#336}</style>\n"
             "<rect width=\"100%%\" height=\"100%%\" fill=\"#f8f8f8\"/>\n"
             "<text x=\"%d\" y=\"20\" text-anchor=\"middle\" style=\"font-size:16px\">",
             WIDTH, height, WIDTH, height, WIDTH / 2);
    sbuf_puts(&b, text);
    xml_text(&b, title ? title : "Flame graph");
    snprintf(text, sizeof(text),
             " (%" PRIu64 " %s)</text>\n"
             "<text id=\"reset\" class=\"c\" x=\"%d\" y=\"20\">Reset zoom</text>\n"
             "<text id=\"search\" class=\"c\" x=\"%d\" y=\"20\" text-anchor=\"end\">Search</text>\n"
             "<text id=\"matched\" x=\"%d\" y=\"%d\" text-anchor=\"end\"></text>\n",
             t.nodes[0].value, unit, PAD, WIDTH - PAD, WIDTH - PAD, height - 4);
    sbuf_puts(&b, text);
    draw(&d, 0, 0, 0);
    sbuf_puts(&b, script);
    sbuf_puts(&b, "</svg>\n");
    int rc = t.failed || b.failed || fwrite(b.data, 1, b.len, out) != b.len ? -1 : 0;
    sbuf_free(&b);
    free(t.nodes);
    return rc;
}
