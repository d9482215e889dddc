/* dyno-item-editor.h: create, edit or duplicate one item, with safe writes
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "dyno-backend.h"
#include "dyno-table-info.h"
#include "dyno-value.h"

G_BEGIN_DECLS

typedef enum {
  DYNO_ITEM_EDITOR_NEW,        /* @loaded is NULL or a template */
  DYNO_ITEM_EDITOR_EDIT,       /* @loaded is the item as the user saw it */
  DYNO_ITEM_EDITOR_DUPLICATE,  /* @loaded is copied and saved as a new item */
} DynoItemEditorMode;

typedef enum {
  DYNO_ITEM_EDITOR_VIEW_JSON,
  DYNO_ITEM_EDITOR_VIEW_FORM,
} DynoItemEditorView;

#define DYNO_TYPE_ITEM_EDITOR (dyno_item_editor_get_type ())
G_DECLARE_FINAL_TYPE (DynoItemEditor, dyno_item_editor, DYNO, ITEM_EDITOR, AdwWindow)

/* Signal "saved" (DynoItem *written): emitted after a successful write, just before the
 * window closes itself.  @collection_items (DynoItem*, may be NULL): the items the user sees,
 * for the sort-order feedback.  @endpoint_url and @region (may be NULL) are for the code the
 * Request section shows. */
GtkWidget          *dyno_item_editor_new      (GtkWindow          *parent,
                                               DynoBackend        *backend,
                                               DynoTableInfo      *info,
                                               DynoItem           *loaded,
                                               DynoItemEditorMode  mode,
                                               GPtrArray          *collection_items,
                                               const char         *endpoint_url,
                                               const char         *region);

DynoItemEditorMode  dyno_item_editor_get_mode (DynoItemEditor     *self);
/* Switches views; FALSE (and the message under the editor) when the JSON is invalid. */
gboolean            dyno_item_editor_set_view (DynoItemEditor     *self,
                                               DynoItemEditorView  view);
DynoItemEditorView  dyno_item_editor_get_view (DynoItemEditor     *self);
/* The JSON text (in the form view: the form's item as text, or NULL when invalid). */
char               *dyno_item_editor_dup_text (DynoItemEditor     *self);
void                dyno_item_editor_set_text (DynoItemEditor     *self,
                                               const char         *text);
/* The item as edited, from whichever view is shown. */
DynoItem           *dyno_item_editor_dup_item (DynoItemEditor     *self,
                                               GError            **error);
/* The request Save would send now, or NULL + why not. */
DynoRequest        *dyno_item_editor_dup_request (DynoItemEditor  *self,
                                                  GError         **error);
/* What "Add to Transaction" does: stages the write Save would send (in the connection's
 * DynoTxStage), emits "staged" and closes; or shows why not. */
void                dyno_item_editor_stage    (DynoItemEditor     *self);
/* What Save does. */
void                dyno_item_editor_save     (DynoItemEditor     *self);
/* TRUE when the edits differ from what was loaded and are not saved. */
gboolean            dyno_item_editor_has_unsaved_changes (DynoItemEditor *self);
/* The conflict dialog currently open, or NULL. */
GtkWidget          *dyno_item_editor_get_conflict_dialog (DynoItemEditor *self);
/* EDIT: the version the edit was conditioned on (after a save: the item as it was before). */
DynoItem           *dyno_item_editor_get_loaded   (DynoItemEditor *self);
/* After "saved": the operation sent ("PutItem", "UpdateItem"), its ConsumedCapacity in WCU
 * (-1 when the response did not say) and how long it took. */
const char         *dyno_item_editor_get_write_operation (DynoItemEditor *self);
double              dyno_item_editor_get_write_capacity  (DynoItemEditor *self);
gint64              dyno_item_editor_get_write_usec      (DynoItemEditor *self);

G_END_DECLS
