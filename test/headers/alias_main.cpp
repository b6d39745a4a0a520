/* SPDX-License-Identifier: MIT */
/* Runs the C++ translation unit that includes every alias of the ETW
 * headers' names (hdr_aliases_after.cpp, generated). */
void hdr_aliases_after(void);
int main()
{
    hdr_aliases_after();
    return 0;
}
