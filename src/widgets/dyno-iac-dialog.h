/* dyno-iac-dialog.h: a table as CloudFormation, CDK or Terraform, to copy or save
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "dyno-backend.h"

G_BEGIN_DECLS

#define DYNO_TYPE_IAC_DIALOG (dyno_iac_dialog_get_type ())
G_DECLARE_FINAL_TYPE (DynoIacDialog, dyno_iac_dialog, DYNO, IAC_DIALOG, AdwWindow)

/* Describes @table_name on @backend (DescribeTable, TTL, backups, tags) and shows it. */
GtkWidget *dyno_iac_dialog_new (GtkWindow   *parent,
                                DynoBackend *backend,
                                const char  *table_name);

G_END_DECLS
