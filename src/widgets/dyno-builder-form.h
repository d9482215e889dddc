/* dyno-builder-form.h: the expression-builder form
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "dyno-query-draft.h"
#include "dyno-request.h"
#include "dyno-table-info.h"

G_BEGIN_DECLS

#define DYNO_TYPE_BUILDER_FORM (dyno_builder_form_get_type ())
G_DECLARE_FINAL_TYPE (DynoBuilderForm, dyno_builder_form, DYNO, BUILDER_FORM, GtkWidget)

GtkWidget   *dyno_builder_form_new                  (void);
/* @info may be NULL (unknown schema: keys are named by hand, values typed as S). */
void         dyno_builder_form_set_table            (DynoBuilderForm *self,
                                                     const char      *table_name,
                                                     DynoTableInfo   *info,
                                                     const char      *index_name);
/* The request the form describes, or NULL when a field cannot be read (the field says why).
 * A non-NULL request may still be invalid: see get_valid()/get_reason(). */
DynoRequest *dyno_builder_form_dup_request          (DynoBuilderForm *self);
gboolean     dyno_builder_form_get_valid            (DynoBuilderForm *self);
/* Why Run is not possible, for its tooltip; NULL when valid. */
const char  *dyno_builder_form_get_reason           (DynoBuilderForm *self);
/* 0: load every page */
guint64      dyno_builder_form_get_max_items        (DynoBuilderForm *self);
/* Loads a request (pasted JSON, an entity chip) into the form; switches to text mode when
 * the form cannot show it. */
void         dyno_builder_form_load_request         (DynoBuilderForm   *self,
                                                     const DynoRequest *request);
/* A copy of what the form says, as a draft (saved queries, history); NULL for a GetItem or
 * before a table is set. */
DynoQueryDraft *dyno_builder_form_dup_draft         (DynoBuilderForm *self);
/* Shows @draft in the form (a saved query or a history entry reopened), as it was saved: an
 * unfinished key is shown unfinished.  Nothing is run. */
void         dyno_builder_form_load_draft           (DynoBuilderForm *self,
                                                     DynoQueryDraft  *draft);
/* Sets the sort-key condition to begins_with(sk, prefix) (entity chips). */
void         dyno_builder_form_set_sort_key_prefix  (DynoBuilderForm *self,
                                                     const char      *prefix);
/* Attribute names seen in results, for path completion. */
void         dyno_builder_form_set_known_attributes (DynoBuilderForm *self,
                                                     const char * const *names);
void         dyno_builder_form_focus                (DynoBuilderForm *self);

G_END_DECLS
