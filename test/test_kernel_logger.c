/* What petw cannot honour yet fails loudly instead of succeeding silently:
 * the NT Kernel Logger (by name, by SystemTraceControlGuid, or with
 * EVENT_TRACE_SYSTEM_LOGGER_MODE) is ERROR_NOT_SUPPORTED until kernel
 * events exist, and EnableTraceEx2 with event filters or enable
 * properties is ERROR_NOT_SUPPORTED until they are implemented (plain
 * ENABLE_TRACE_PARAMETERS are fine). */
#include "test_util.h"

DEFINE_GUID(ParamProvider, 0x9a9a9a9a, 0x1, 0x2, 0x3, 0x4, 0, 0, 0, 0, 0, 0x1);

int main(void)
{
    test_props tp;
    TRACEHANDLE h = 0;
    test_props_init(&tp, NULL);
    tp.p.LogFileMode = EVENT_TRACE_REAL_TIME_MODE;
    CHECK_EQ(StartTraceA(&h, KERNEL_LOGGER_NAMEA, &tp.p), ERROR_NOT_SUPPORTED);
    CHECK_EQ(StartTraceW(&h, KERNEL_LOGGER_NAMEW, &tp.p), ERROR_NOT_SUPPORTED);
    test_props_init(&tp, NULL);
    tp.p.LogFileMode = EVENT_TRACE_REAL_TIME_MODE;
    tp.p.Wnode.Guid = SystemTraceControlGuid;
    CHECK_EQ(StartTraceA(&h, "petw-test-kernel-guid", &tp.p), ERROR_NOT_SUPPORTED);
    test_props_init(&tp, NULL);
    tp.p.LogFileMode = EVENT_TRACE_REAL_TIME_MODE | EVENT_TRACE_SYSTEM_LOGGER_MODE;
    CHECK_EQ(StartTraceA(&h, "petw-test-system-logger", &tp.p), ERROR_NOT_SUPPORTED);
    CHECK_EQ(h, 0);

    test_props_init(&tp, NULL);
    tp.p.LogFileMode = EVENT_TRACE_BUFFERING_MODE;
    CHECK_EQ(StartTraceA(&h, "petw-test-enable-params", &tp.p), ERROR_SUCCESS);
    ENABLE_TRACE_PARAMETERS ep;
    memset(&ep, 0, sizeof(ep));
    ep.Version = ENABLE_TRACE_PARAMETERS_VERSION_2;
    CHECK_EQ(EnableTraceEx2(h, &ParamProvider, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 5, 0, 0, 0, &ep),
             ERROR_SUCCESS);
    ep.EnableProperty = EVENT_ENABLE_PROPERTY_PSM_KEY;
    CHECK_EQ(EnableTraceEx2(h, &ParamProvider, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 5, 0, 0, 0, &ep),
             ERROR_NOT_SUPPORTED);
    ep.EnableProperty = 0;
    EVENT_FILTER_DESCRIPTOR f;
    memset(&f, 0, sizeof(f));
    ep.EnableFilterDesc = &f;
    ep.FilterDescCount = 1;
    /* EVENT_FILTER_TYPE_NONE: malformed. */
    CHECK_EQ(EnableTraceEx2(h, &ParamProvider, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 5, 0, 0, 0, &ep),
             ERROR_INVALID_PARAMETER);
    uint8_t blob[16] = {0};
    f.Ptr = (ULONGLONG)(uintptr_t)blob;
    f.Size = sizeof(blob);
    f.Type = EVENT_FILTER_TYPE_PAYLOAD;
    CHECK_EQ(EnableTraceEx2(h, &ParamProvider, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 5, 0, 0, 0, &ep),
             ERROR_NOT_SUPPORTED);
    ep.FilterDescCount = 0;
    ep.Version = 7;
    CHECK_EQ(EnableTraceEx2(h, &ParamProvider, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 5, 0, 0, 0, &ep),
             ERROR_INVALID_PARAMETER);
    CHECK_EQ(ControlTraceA(h, NULL, &tp.p, EVENT_TRACE_CONTROL_STOP), ERROR_SUCCESS);
    printf("kernel logger and enable parameters: refused as unsupported\n");
    return 0;
}
