/* dyno-application.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "dyno-connection-store.h"
#include "dyno-query-store.h"

G_BEGIN_DECLS

#define DYNO_TYPE_APPLICATION (dyno_application_get_type ())
G_DECLARE_FINAL_TYPE (DynoApplication, dyno_application, DYNO, APPLICATION, AdwApplication)

DynoApplication     *dyno_application_new                  (void);
DynoConnectionStore *dyno_application_get_connection_store (DynoApplication *self);
/* Saved queries and history, read at startup. */
DynoQueryStore      *dyno_application_get_query_store      (DynoApplication *self);
/* Why they could not be read at startup (the file was kept aside), or NULL. */
const char          *dyno_application_get_query_store_error (DynoApplication *self);

G_END_DECLS
