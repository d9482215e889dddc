/* dyno-table-iac.h: what a table is made with, read from the server for infrastructure as
 * code: DescribeTable, DescribeTimeToLive, DescribeContinuousBackups, ListTagsOfResource
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "dyno-backend.h"
#include "dyno-iac.h"

G_BEGIN_DECLS

/* DescribeTable must answer; the other three may not (DynamoDB Local has no backups or tags,
 * a role may not be allowed to read them): what they did not say is noted in the result
 * (dyno_iac_table_note_unknown()) and so in the generated code. */
void          dyno_table_iac_describe_async  (DynoBackend          *backend,
                                              const char           *table_name,
                                              GCancellable         *cancellable,
                                              GAsyncReadyCallback   callback,
                                              gpointer              user_data);
DynoIacTable *dyno_table_iac_describe_finish (DynoBackend          *backend,
                                              GAsyncResult         *result,
                                              GError              **error);

G_END_DECLS
