/* SPDX-License-Identifier: MIT */
/* test_pdb_undecorate.c - MSVC-decorated names as the PDB reader's publics
 * fallback shows them (lib/read/pdb/undecorate.h): a table of decorated
 * names and their name parts (plain and nested scopes, back-references,
 * templates with type and integer arguments, constructors, destructors,
 * operators, anonymous namespaces, functions' local scopes, vftables, RTTI
 * records); names it cannot
 * read, damaged ones and every truncation of the table's names give -1 (the
 * caller keeps the decorated name), never a crash; an output buffer too
 * small gives -1.
 *
 * With --stdin it prints, for each line of its input, the line, a tab and
 * its undecoration (empty when -1): pdb_undname.py compares that with
 * llvm-undname over the publics of PDBs built by clang-cl. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"

#include "../../lib/read/pdb/undecorate.h"

static const struct {
    const char *decorated, *name;
} table[] = {
    {"?f@@YAXXZ", "f"},
    {"?f@ns@@YAXXZ", "ns::f"},
    {"?area@Square@geo@@UEBAHXZ", "geo::Square::area"},
    {"?inputs@@3RCHC", "inputs"},
    {"?hash_step@detail@util@@YAHHH@Z", "util::detail::hash_step"},
    /* back-references to earlier fragments */
    {"?measure@geo@@YAHAEBUShape@1@H@Z", "geo::measure"},
    {"?f@a@0@YAXXZ", "f::a::f"},
    {"?g@a@b@1@YAXXZ", "a::b::a::g"},
    /* constructors, destructors, operators */
    {"??0Widget@ns@@QEAA@XZ", "ns::Widget::Widget"},
    {"??1Widget@ns@@QEAA@XZ", "ns::Widget::~Widget"},
    {"??0?$Widget@H@ns@@QEAA@XZ", "ns::Widget<int>::Widget<int>"},
    {"??1?$Widget@H@ns@@QEAA@XZ", "ns::Widget<int>::~Widget<int>"},
    {"??Y?$Widget@H@ns@@QEAAAEAV01@H@Z", "ns::Widget<int>::operator+="},
    {"??4Widget@@QEAAAEAV0@AEBV0@@Z", "Widget::operator="},
    {"??2@YAPEAX_K@Z", "operator new"},
    {"??3@YAXPEAX@Z", "operator delete"},
    {"??_U@YAPEAX_K@Z", "operator new[]"},
    {"??_V@YAXPEAX@Z", "operator delete[]"},
    {"??RFunctor@@QEBAHH@Z", "Functor::operator()"},
    {"??8Point@@QEBA_NAEBU0@@Z", "Point::operator=="},
    {"??6@YAAEAVostream@@AEAV0@H@Z", "operator<<"},
    {"??_0Vec@@QEAAAEAU0@M@Z", "Vec::operator/="},
    {"??__LTask@@QEAAXXZ", "Task::operator co_await"},
    {"??Bfoo@@QEAAHXZ", "foo::operator int"},
    {"??Bfoo@@QEBA_NXZ", "foo::operator bool"},
    {"??_GWidget@@UEAAPEAXI@Z", "Widget::`scalar deleting destructor'"},
    {"??_EWidget@@UEAAPEAXI@Z", "Widget::`vector deleting destructor'"},
    /* templates: types, nested templates, integers, packs */
    {"?push_back@?$vector@HV?$allocator@H@std@@@std@@QEAAXAEBH@Z",
     "std::vector<int,std::allocator<int> >::push_back"},
    {"??$f@H@@YAXXZ", "f<int>"},
    {"??$max@N@util@@YANNN@Z", "util::max<double>"},
    {"??$f@$0A@$00$0?0$0BA@@@YAXXZ", "f<0,1,-1,16>"},
    {"??$f@PEBD@@YAXXZ", "f<char const *>"},
    {"??$f@$$CBH@@YAXXZ", "f<int const>"},
    {"??$f@AEAH$$QEAH@@YAXXZ", "f<int &,int &&>"},
    {"??$f@QEAH@@YAXXZ", "f<int *const>"},
    {"??$f@DEFGIJK_J_K_NMNX@@YAXXZ",
     "f<char,unsigned char,short,unsigned short,unsigned int,long,unsigned long,__int64,"
     "unsigned __int64,bool,float,double,void>"},
    {"??$f@W4Color@gfx@@@@YAXXZ", "f<gfx::Color>"},
    {"??$f@UPoint@@TU@@@@YAXXZ", "f<Point,U>"},
    {"??$f@$$V@@YAXXZ", "f<>"},
    {"??$f@V?$v@H@@V1@@@YAXXZ", "f<v<int>,v<int> >"},
    {"?get@?$Box@V?$Box@H@@@@QEAAHXZ", "Box<Box<int> >::get"},
    {"??$?HH@Vec@@QEAAXH@Z", "Vec::operator+<int>"},
    /* anonymous namespaces, lambdas' names */
    {"?g@?A0x12345678@@YAXXZ", "`anonymous namespace'::g"},
    {"?helper@?A0xdeadbeef@ns@@YAHH@Z", "ns::`anonymous namespace'::helper"},
    /* functions' local scopes: the function's whole signature, as Windows
     * tools print it */
    {"??R<lambda_1>@?0??main@@YAHXZ@QEBA@H@Z",
     "`int __cdecl main(void)'::`1'::<lambda_1>::operator()"},
    {"?x@?1??f@C@@QEAAXXZ@4HA", "`public: void __cdecl C::f(void)'::`2'::x"},
    {"??R<lambda_1>@?0??f@C@@QEBAXPEAV1@HAEBV1@@Z@QEBA@H@Z",
     "`public: void __cdecl C::f(f *, int, f const &) const'::`1'::<lambda_1>::operator()"},
    {"??R<lambda_0>@?0???$t@H@@YAXH@Z@QEBAXXZ",
     "`void __cdecl t<int>(int)'::`1'::<lambda_0>::operator()"},
    {"?f@?0??g@@YAXPEAH0@Z@YAXXZ", "`void __cdecl g(int *, int *)'::`1'::f"},
    {"?f@?0??g@@YAXHZZ@YAXXZ", "`void __cdecl g(int, ...)'::`1'::f"},
    {"?f@?0??g@@SAXXZ@YAXXZ", "`public: static void __cdecl g(void)'::`1'::f"},
    /* vftables, RTTI, strings */
    {"??_7Square@geo@@6B@", "geo::Square::`vftable'"},
    {"??_7D@@6BB@@@", "D::`vftable'{for `B'}"},
    {"??_8D@@7B@", "D::`vbtable'"},
    {"??_R0?AVWidget@ns@@@8", "ns::Widget `RTTI Type Descriptor'"},
    {"??_R1A@?0A@EA@Widget@@8", "Widget::`RTTI Base Class Descriptor at (0,-1,0,64)'"},
    {"??_R2Widget@@8", "Widget::`RTTI Base Class Array'"},
    {"??_R3Widget@@8", "Widget::`RTTI Class Hierarchy Descriptor'"},
    {"??_R4Widget@@6B@", "Widget::`RTTI Complete Object Locator'"},
    {"??_C@_05CJBACGMB@hello?$AA@", "`string'"},
};

/* Not read (left decorated): forms this reader does not know, and damage. */
static const char *const unread[] = {
    "main",
    "?",
    "??",
    "?@",
    "?f",
    "?f@",
    "?f@ns",
    "?f@1@YAXXZ",
    "??$f@",
    "??$f@H",
    "??$f@?H@@YAXXZ",
    "??_R9X@@8",
    "??_R0?AVX@@@9",
    "??__Ex@@YAXXZ",
    "?f@?0??g@@YAXP6AHH@Z@Z@YAXXZ",       /* a pointer to a function among the parameters */
    "?f@?0??g@@YAXH@@YAXXZ",              /* no exception specification */
    "?f@?0??g@@YAX1@Z@YAXXZ",             /* a parameter back-reference to nothing */
    "??$f@$0AAAAAAAAAAAAAAAAAAA@@@YAXXZ", /* a number of more than 64 bits */
    "??$f@$0AB@@YAXXZ",                   /* a number not ended */
    "?f@a b@@YAXXZ",
    "??_7D@@6B",
};

static void check(const char *decorated, const char *want)
{
    char out[1024];
    int n = petw__pdb_undecorate(decorated, out, sizeof(out));
    if (!want) {
        if (n != -1)
            fprintf(stderr, "%s: read as %s, expected -1\n", decorated, out);
        CHECK_EQ(n, -1);
        return;
    }
    if (n < 0 || strcmp(out, want) != 0)
        fprintf(stderr, "%s: got %s, expected %s\n", decorated, n < 0 ? "-1" : out, want);
    CHECK(n >= 0 && !strcmp(out, want));
    CHECK_EQ((size_t)n, strlen(want));
    /* The exact size fits; one byte less does not. */
    char *exact = malloc((size_t)n + 1);
    CHECK(exact);
    CHECK_EQ(petw__pdb_undecorate(decorated, exact, (size_t)n + 1), n);
    CHECK_EQ(petw__pdb_undecorate(decorated, exact, (size_t)n), -1);
    free(exact);
    /* Every truncation is read or refused, never past its end (ASan). */
    size_t len = strlen(decorated);
    for (size_t i = 0; i < len; i++) {
        char *cut = malloc(i + 1);
        CHECK(cut);
        memcpy(cut, decorated, i);
        cut[i] = 0;
        int r = petw__pdb_undecorate(cut, out, sizeof(out));
        CHECK(r == -1 || (r >= 0 && (size_t)r == strlen(out)));
        free(cut);
    }
}

static int from_stdin(void)
{
    char line[8192], out[1024];
    while (fgets(line, sizeof(line), stdin)) {
        line[strcspn(line, "\r\n")] = 0;
        int n = petw__pdb_undecorate(line, out, sizeof(out));
        printf("%s\t%s\n", line, n < 0 ? "" : out);
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "--stdin"))
        return from_stdin();
    for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++)
        check(table[i].decorated, table[i].name);
    for (size_t i = 0; i < sizeof(unread) / sizeof(unread[0]); i++)
        check(unread[i], NULL);
    /* Nesting past the depth bound and names past the output's size. */
    char deep[4096] = "??$f@";
    for (int i = 0; i < 200; i++)
        strcat(deep, "PEA");
    strcat(deep, "H@@YAXXZ");
    check(deep, NULL);
    char nested[4096] = "?f@";
    for (int i = 0; i < 100; i++)
        strcat(nested, "?$t@V");
    check(nested, NULL);
    char wide[8192] = "?";
    for (int i = 0; i < 30; i++)
        strcat(wide, "abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyz@");
    strcat(wide, "@YAXXZ");
    char out[64];
    CHECK_EQ(petw__pdb_undecorate(wide, out, sizeof(out)), -1);
    /* Not decorated, no buffer. */
    CHECK_EQ(petw__pdb_undecorate("plain", out, sizeof(out)), -1);
    CHECK_EQ(petw__pdb_undecorate("?f@@YAXXZ", out, 0), -1);
    CHECK_EQ(petw__pdb_undecorate(NULL, out, sizeof(out)), -1);
    printf("%zu names read, %zu refused\n", sizeof(table) / sizeof(table[0]),
           sizeof(unread) / sizeof(unread[0]) + 2);
    return 0;
}
