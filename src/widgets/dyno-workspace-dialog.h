/* dyno-workspace-dialog.h: New, Open, Duplicate and Export Workspace
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "dyno-connection-store.h"
#include "dyno-engine-backend.h"

G_BEGIN_DECLS

typedef enum {
  DYNO_WORKSPACE_DIALOG_NEW,        /* a name: a new empty workspace in the data folder */
  DYNO_WORKSPACE_DIALOG_OPEN,       /* a file anywhere, opened as a Playground */
  DYNO_WORKSPACE_DIALOG_DUPLICATE,  /* a name: a copy of @backend's workspace, opened */
  DYNO_WORKSPACE_DIALOG_EXPORT,     /* a file: a copy of @backend's workspace, to share */
} DynoWorkspaceDialogMode;

#define DYNO_TYPE_WORKSPACE_DIALOG (dyno_workspace_dialog_get_type ())
G_DECLARE_FINAL_TYPE (DynoWorkspaceDialog, dyno_workspace_dialog, DYNO, WORKSPACE_DIALOG,
                      AdwWindow)

/* @backend: the workspace copied (DUPLICATE, EXPORT); NULL otherwise.  New Playgrounds are
 * added to @store and saved; the window mirrors the store in its sidebar. */
DynoWorkspaceDialog *dyno_workspace_dialog_new (GtkWindow               *parent,
                                                DynoWorkspaceDialogMode  mode,
                                                DynoConnectionStore     *store,
                                                DynoEngineBackend       *backend,
                                                const char              *source_name);

G_END_DECLS
