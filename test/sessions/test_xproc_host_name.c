/* SPDX-License-Identifier: MIT */
/* A session host says what it is: a session started with StartTrace (a
 * shared session, owned by a host that is this program started again
 * through /proc/self/exe) runs in a process whose comm, the name ps, top
 * and petw's own process events give it, is "petw-host", not "exe". */
#include "test_util.h"

int main(void)
{
    char name[64], file[256], path[64], comm[64] = "";
    snprintf(name, sizeof(name), "petw-host-name-%d", (int)getpid());
    test_path(file, sizeof(file), "host-name.etl");
    test_props tp;
    test_props_init(&tp, file);
    TRACEHANDLE h = 0;
    CHECK_EQ(StartTraceA(&h, name, &tp.p), ERROR_SUCCESS);
    petw_session_stats st;
    CHECK_EQ(petw_session_query(h, &st), 0);
    CHECK(st.host_process_id != 0 && st.host_process_id != (uint32_t)getpid());
    snprintf(path, sizeof(path), "/proc/%u/comm", (unsigned)st.host_process_id);
    FILE *f = fopen(path, "r");
    CHECK(f);
    CHECK(fgets(comm, sizeof(comm), f) != NULL);
    fclose(f);
    printf("host %u: comm %s", (unsigned)st.host_process_id, comm);
    test_props_init(&tp, NULL);
    CHECK_EQ(ControlTraceA(0, name, &tp.p, EVENT_TRACE_CONTROL_STOP), ERROR_SUCCESS);
    unlink(file);
    CHECK_EQ(strcmp(comm, "petw-host\n"), 0);
    printf("xproc_host_name: ok\n");
    return 0;
}
