/* dyno-connection-private.h: the fields of a DynoConnection, which the
 * DynoConnectionStore that loads and saves connections reads and writes
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "dyno-connection.h"

G_BEGIN_DECLS

struct _DynoConnection
{
  GObject             parent_instance;

  char               *id;
  DynoConnectionKind  kind;
  char               *name;
  char               *endpoint_url;
  char               *region;
  char               *profile;
  char               *access_key_id;
  char               *workspace;     /* PLAYGROUND */
  DynoSignAs          sign_as;
  char              **env;           /* NULL: the process's */

  /* what the last successful open signed with */
  char               *signed_key_id;
  char               *signed_region;
  char               *signed_source;
};

G_END_DECLS
