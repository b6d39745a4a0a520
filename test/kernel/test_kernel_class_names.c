/* SPDX-License-Identifier: MIT */
/* Kernel event classes by name and GUID: each class the reader files
 * kernel records under has its MOF name ("Image" is
 * 2cb15d1d-5fc1-11d2-abe1-00a0c911f518, as Microsoft documents it), names
 * and GUIDs map both ways, and anything else is unknown. */
#include "test_util.h"

int main(void)
{
    static const char *const names[] = {
        "EventTrace", "DiskIo",   "PageFault",    "Process",  "FileIo", "Thread",    "TcpIp",
        "UdpIp",      "Registry", "SystemConfig", "PerfInfo", "Image",  "StackWalk", "ALPC"};
    petw_guid g, prev = {0};
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        CHECK_EQ(petw_kernel_class_guid(names[i], &g), 0);
        CHECK(!petw_guid_equal(&g, &prev));
        const char *back = petw_kernel_class_name(&g);
        CHECK(back != NULL && strcmp(back, names[i]) == 0);
        prev = g;
    }
    CHECK_EQ(petw_kernel_class_guid("Image", &g), 0);
    char text[37];
    petw_guid_format(&g, text);
    CHECK_EQ(strcmp(text, "2cb15d1d-5fc1-11d2-abe1-00a0c911f518"), 0);
    CHECK_EQ(petw_kernel_class_guid("Thread", &g), 0);
    petw_guid_format(&g, text);
    CHECK_EQ(strcmp(text, "3d6fa8d1-fe05-11d0-9dda-00c04fd7ba7c"), 0);
    CHECK_EQ(petw_kernel_class_guid("image", &g), PETW_ENOTFOUND);
    CHECK_EQ(petw_kernel_class_guid("Nope", &g), PETW_ENOTFOUND);
    CHECK_EQ(petw_kernel_class_guid(NULL, &g), PETW_ENOTFOUND);
    CHECK(petw_guid_parse("5a1c4e1b-7a2f-4d3e-9b61-2c8e4f103a77", &g) == 0);
    CHECK(petw_kernel_class_name(&g) == NULL);
    CHECK(petw_kernel_class_name(NULL) == NULL);
    printf("kernel_class_names: 14 classes by name and GUID\n");
    return 0;
}
