/* dyno-conflict-dialog.h: a save met a concurrent change; both versions side by side
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "dyno-value.h"

G_BEGIN_DECLS

typedef enum {
  DYNO_CONFLICT_CANCEL,     /* keep editing (closed the dialog) */
  DYNO_CONFLICT_RELOAD,     /* discard mine, load theirs as the new base */
  DYNO_CONFLICT_OVERWRITE,  /* save mine again, conditioned on theirs */
} DynoConflictChoice;

#define DYNO_TYPE_CONFLICT_DIALOG (dyno_conflict_dialog_get_type ())
G_DECLARE_FINAL_TYPE (DynoConflictDialog, dyno_conflict_dialog, DYNO, CONFLICT_DIALOG, AdwWindow)

/* Signal "chosen" (DynoConflictChoice as gint), emitted once; the dialog closes itself.
 * @loaded: the version the edit started from (NULL for a new item); @mine: the user's;
 * @theirs: the item in the table now (NULL when it no longer exists). */
GtkWidget *dyno_conflict_dialog_new    (GtkWindow          *parent,
                                        DynoItem           *loaded,
                                        DynoItem           *mine,
                                        DynoItem           *theirs);
/* What a click on the button would do (for tests and keyboard shortcuts). */
void       dyno_conflict_dialog_choose (DynoConflictDialog *self,
                                        DynoConflictChoice  choice);
/* The attribute names highlighted as differing between theirs and mine (sorted). */
GStrv      dyno_conflict_dialog_dup_changed (DynoConflictDialog *self);

G_END_DECLS
