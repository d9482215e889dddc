/* dyno-codegen-old.h: what the targets not yet moved to the walker use (transitional)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "dyno-codegen-private.h"

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
/* dyno-codegen-partiql.c */
char *dyno_codegen_emit_partiql        (const DynoRequest *, const DynoPrintedRequest *,
                                        const DynoCodegenOptions *, GError **);

/* The name of member @i of an M, quoted (with its NULs). */
void  dyno_codegen_append_member_name (GString         *out,
                                       const DynoValue *map,
                                       guint            i,
                                       DynoQuoteStyle   style);
/* An S or N value's text, quoted (with its NULs). */
void  dyno_codegen_append_value_string (GString         *out,
                                        const DynoValue *value,
                                        DynoQuoteStyle   style);

typedef struct {
  const char            *name;     /* "TableName", … */
  DynoCodegenMemberKind  kind;
  const char            *string;
  gint64                 integer;
  gboolean               boolean;
  const DynoValue       *map;
} DynoCodegenOldMember;

/* A GArray of DynoCodegenOldMember borrowing from @request and @printed. */
GArray     *dyno_codegen_collect_old_members     (const DynoRequest        *request,
                                              const DynoPrintedRequest *printed);

G_END_DECLS
