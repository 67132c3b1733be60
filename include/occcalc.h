/* occcalc's C ABI (C99): the calculator the occcalc command line runs, with
 * its tables built in, for any program. docs/library.md.
 *
 * Thread-safe: every call may run on any thread at once. Strings in and out
 * are UTF-8 JSON text; every string a call returns is the caller's, to give
 * back with occcalc_free. */
#ifndef OCCCALC_H
#define OCCCALC_H

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32)
#define OCCCALC_API
#else
#define OCCCALC_API __attribute__((visibility("default")))
#endif

/* occcalc's version, "0.1.0": static, never freed. */
OCCCALC_API const char *occcalc_version(void);

/* The answer to one request object, exactly as `occcalc batch` answers it
 * as a line (schema/result.schema.json): the result, or
 * {"schema_version":N,"error":{"field":...,"message":...}} naming the field,
 * without a line number (a request that is not JSON is "the request").
 * `request`: a JSON object of the request keys (`cc` or `gpu`, `threads`,
 * `regs`, ...; AMD: `gfx`, `vgprs`, ...), as `occcalc batch` reads a line;
 * NULL is the empty request. Returns JSON text to give to occcalc_free, or
 * NULL only when memory runs out. */
OCCCALC_API char *occcalc_json(const char *request);

/* Gives back a string a call returned; NULL does nothing. */
OCCCALC_API void occcalc_free(char *text);

#ifdef __cplusplus
}
#endif

#endif /* OCCCALC_H */
