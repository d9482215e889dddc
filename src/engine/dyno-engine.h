/* dyno-engine.h: an embedded DynamoDB, on a SQLite workspace or in memory
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

#include "dyno-engine-error.h"

G_BEGIN_DECLS

#define DYNO_TYPE_ENGINE (dyno_engine_get_type ())
G_DECLARE_FINAL_TYPE (DynoEngine, dyno_engine, DYNO, ENGINE, GObject)

/* Opens (or creates) the workspace at @path, a SQLite database in WAL mode (see the README's
 * "The workspace file"), or an empty in-memory engine when @path is NULL.  Every request that
 * is answered without an error is committed: it survives the process being killed. */
DynoEngine *dyno_engine_new     (const char  *path,
                                 GError     **error);

/* One DynamoDB request: @operation is the X-Amz-Target suffix ("PutItem", "Query", …) and
 * @body the request JSON.  Returns the response JSON, or NULL with a DYNO_ENGINE_ERROR whose
 * code is DynamoDB's `__type` and whose message is DynamoDB's.  Not thread-safe: call it from
 * one thread. */
char       *dyno_engine_request (DynoEngine  *self,
                                 const char  *operation,
                                 const char  *body,
                                 gssize       len,
                                 GError     **error);

/* dyno_engine_request(), and on failure also the error body DynamoDB sends, in
 * *@out_error_body (may be NULL; set to NULL on success): {"__type": the wire type,
 * "message": the error's message ("Message" for TransactionCanceledException, as DynamoDB
 * spells it there)} plus the members some errors carry — a
 * TransactionCanceledException's "CancellationReasons", a ConditionalCheckFailedException's
 * "Item" (ReturnValuesOnConditionCheckFailure ALL_OLD).  A server sends that body as is. */
char       *dyno_engine_request_full (DynoEngine  *self,
                                      const char  *operation,
                                      const char  *body,
                                      gssize       len,
                                      char       **out_error_body,
                                      GError     **error);

/* The body DynamoDB sends for @error (a DYNO_ENGINE_ERROR; any other is an
 * InternalServerError): {"__type", "message"}, as dyno_engine_request_full() gives it for an
 * error that carries no other members.  For a server's own refusals (a request that names no
 * operation). */
char       *dyno_engine_error_body   (const GError *error);

/* The workspace file, or NULL in memory. */
const char *dyno_engine_get_path (DynoEngine *self);

/* When a workspace file's WAL is checkpointed, in pages (the defaults are 1000, 4000, 16000):
 * a thread copies it into the database every @step pages; past @restart pages the committing
 * thread finishes a checkpoint when little is left to copy, and past @limit whatever is left,
 * so that the WAL starts over and stays under @limit pages plus one transaction.  For tests
 * and benchmarks; nothing for an in-memory engine. */
void        dyno_engine_set_wal_limits (DynoEngine *self,
                                        guint       step,
                                        guint       restart,
                                        guint       limit);

/* A consistent copy of the whole workspace, tables and pattern sets, written to @path (a new
 * file, or one replaced as a whole): SQLite's VACUUM INTO on the engine's own connection, so
 * a live WAL workspace is copied as of one moment and compacted.  @path must not be the
 * workspace itself.  Works on an in-memory engine too. */
gboolean    dyno_engine_export_to (DynoEngine  *self,
                                   const char  *path,
                                   GError     **error);

/* The name of the pattern set a workspace carries by default. */
#define DYNO_ENGINE_DEFAULT_PATTERNS "default"

/* The pattern set (a "dynotable-patterns" JSON document) the workspace keeps under @name
 * (NULL: DYNO_ENGINE_DEFAULT_PATTERNS), in its dyno_patterns table; NULL, without an error,
 * when there is none.  Setting @json NULL removes it; a @json that is not a JSON object is
 * refused (the engine does not read patterns: core's dyno_access_patterns_from_json() does). */
char       *dyno_engine_dup_patterns (DynoEngine  *self,
                                      const char  *name,
                                      GError     **error);
gboolean    dyno_engine_set_patterns (DynoEngine  *self,
                                      const char  *name,
                                      const char  *json,
                                      GError     **error);

G_END_DECLS
