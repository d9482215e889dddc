/* dyno-codegen-private.h: what the per-language emitters share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "dyno-codegen.h"

G_BEGIN_DECLS

/* Every emitter has this shape.  @printed holds the request's expressions and placeholder
 * maps as one DynoExprPrinter printed them (the same text in every target). */
typedef char *(*DynoCodegenEmitFunc) (const DynoRequest        *request,
                                      const DynoPrintedRequest *printed,
                                      const DynoCodegenOptions *options,
                                      GError                  **error);

/* dyno-codegen-json.c */
char *dyno_codegen_emit_request_json   (const DynoRequest *, const DynoPrintedRequest *,
                                        const DynoCodegenOptions *, GError **);
/* dyno-codegen-cli.c */
char *dyno_codegen_emit_cli            (const DynoRequest *, const DynoPrintedRequest *,
                                        const DynoCodegenOptions *, GError **);
/* dyno-codegen-js.c */
char *dyno_codegen_emit_js_v3          (const DynoRequest *, const DynoPrintedRequest *,
                                        const DynoCodegenOptions *, GError **);
char *dyno_codegen_emit_js_docclient   (const DynoRequest *, const DynoPrintedRequest *,
                                        const DynoCodegenOptions *, GError **);
/* dyno-codegen-python.c */
char *dyno_codegen_emit_boto3          (const DynoRequest *, const DynoPrintedRequest *,
                                        const DynoCodegenOptions *, GError **);
char *dyno_codegen_emit_boto3_resource (const DynoRequest *, const DynoPrintedRequest *,
                                        const DynoCodegenOptions *, GError **);
/* dyno-codegen-partiql.c */
char *dyno_codegen_emit_partiql        (const DynoRequest *, const DynoPrintedRequest *,
                                        const DynoCodegenOptions *, GError **);
/* dyno-codegen-go.c, -java.c, -rust.c, -dotnet.c, -kotlin.c, -php.c, -ruby.c, -cpp.c */
char *dyno_codegen_emit_go_v2          (const DynoRequest *, const DynoPrintedRequest *,
                                        const DynoCodegenOptions *, GError **);
char *dyno_codegen_emit_java_v2        (const DynoRequest *, const DynoPrintedRequest *,
                                        const DynoCodegenOptions *, GError **);
char *dyno_codegen_emit_rust           (const DynoRequest *, const DynoPrintedRequest *,
                                        const DynoCodegenOptions *, GError **);
char *dyno_codegen_emit_dotnet         (const DynoRequest *, const DynoPrintedRequest *,
                                        const DynoCodegenOptions *, GError **);
char *dyno_codegen_emit_kotlin         (const DynoRequest *, const DynoPrintedRequest *,
                                        const DynoCodegenOptions *, GError **);
char *dyno_codegen_emit_php            (const DynoRequest *, const DynoPrintedRequest *,
                                        const DynoCodegenOptions *, GError **);
char *dyno_codegen_emit_ruby           (const DynoRequest *, const DynoPrintedRequest *,
                                        const DynoCodegenOptions *, GError **);
char *dyno_codegen_emit_cpp            (const DynoRequest *, const DynoPrintedRequest *,
                                        const DynoCodegenOptions *, GError **);

/* dyno-codegen-util.c: shared helpers (string literal escaping per language family, the
 * SDK operation/method names, member lists in API order, indentation).  Owned by codegen-a;
 * codegen-b may add helpers in its own files. */
typedef enum {
  DYNO_QUOTE_C_LIKE,      /* "…" with \" \\ \n \t \uXXXX: JS, Java, C#, Kotlin ($ too), Go, C++, Rust */
  DYNO_QUOTE_PYTHON,      /* '…' or "…" Python literal */
  DYNO_QUOTE_RUBY_SINGLE, /* '…' */
  DYNO_QUOTE_PHP_SINGLE,  /* '…' */
  DYNO_QUOTE_SHELL,       /* POSIX shell single-quoted word */
} DynoQuoteStyle;

void  dyno_codegen_append_quoted (GString        *out,
                                  const char     *text,
                                  DynoQuoteStyle  style);

G_END_DECLS
