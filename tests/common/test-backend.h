/* test-backend.h: the one fake DynoBackend of the in-process tests
 *
 * It records every call (operation and request body) and answers each from, in order: the
 * queue of canned replies, then the handler, if one is set.  A call with neither fails the
 * test, naming the call.  Replies with a status other than 200 come back as the client's own
 * service errors (dyno_http_error_new()), so widgets see exactly what a server's "no" gives.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

#include "dyno-backend.h"

G_BEGIN_DECLS

#define TEST_TYPE_BACKEND (test_backend_get_type ())
G_DECLARE_FINAL_TYPE (TestBackend, test_backend, TEST, BACKEND, GObject)

/* Answers @operation with @body: returns the response body and sets *@out_status (200 when
 * left alone).  Runs on the main thread, or on a worker thread after
 * test_backend_set_threaded(). */
typedef char *(*TestBackendHandler) (const char *operation,
                                     const char *body,
                                     guint      *out_status,
                                     gpointer    user_data);

TestBackend *test_backend_new             (void);

void         test_backend_queue_reply     (TestBackend        *self,
                                           guint               status,
                                           const char         *body);
void         test_backend_set_handler     (TestBackend        *self,
                                           TestBackendHandler  handler,
                                           gpointer            user_data,
                                           GDestroyNotify      destroy);
void         test_backend_set_threaded    (TestBackend        *self,
                                           gboolean            threaded);
/* Every call must be @operation (the test fails naming the one that is not). */
void         test_backend_expect_only     (TestBackend        *self,
                                           const char         *operation);

guint        test_backend_get_n_calls     (TestBackend        *self);
guint        test_backend_get_n_pending   (TestBackend        *self);
const char  *test_backend_get_operation   (TestBackend        *self,
                                           guint               i);
const char  *test_backend_get_body        (TestBackend        *self,
                                           guint               i);
/* The @i-th request body as a JSON object, owned by @parser. */
JsonObject  *test_backend_get_body_object (TestBackend        *self,
                                           guint               i,
                                           JsonParser         *parser);
void         test_backend_clear_calls     (TestBackend        *self);

G_END_DECLS
