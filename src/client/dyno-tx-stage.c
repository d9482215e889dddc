/* dyno-tx-stage.c: writes staged to be committed together as one TransactWriteItems
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "dyno-tx-stage.h"
#include "dyno-error.h"
#include "dyno-http-error.h"

typedef struct {
  DynoTransactItem  item;
  DynoItem         *key;
  char             *reason_code;
  char             *reason_message;
} Staged;

struct _DynoTxStage
{
  GObject      parent_instance;

  GWeakRef     backend;
  GPtrArray   *writes;      /* Staged* */
  char        *token;       /* of the set as it is; NULL until asked for after a change */
  gboolean     committing;
};

G_DEFINE_FINAL_TYPE (DynoTxStage, dyno_tx_stage, G_TYPE_OBJECT)

enum { SIGNAL_CHANGED, SIGNAL_COMMITTED, N_SIGNALS };
static guint signals[N_SIGNALS];

static void
staged_free (Staged *staged)
{
  dyno_request_free (staged->item.request);
  g_clear_pointer (&staged->key, dyno_item_unref);
  g_free (staged->reason_code);
  g_free (staged->reason_message);
  g_free (staged);
}

static void
clear_reasons (DynoTxStage *self)
{
  for (guint i = 0; i < self->writes->len; i++)
    {
      Staged *staged = g_ptr_array_index (self->writes, i);

      g_clear_pointer (&staged->reason_code, g_free);
      g_clear_pointer (&staged->reason_message, g_free);
    }
}

/* The set changed: it is a new transaction, with a token of its own. */
static void
set_changed (DynoTxStage *self)
{
  g_clear_pointer (&self->token, g_free);
  clear_reasons (self);
  g_signal_emit (self, signals[SIGNAL_CHANGED], 0);
}

DynoTxStage *
dyno_tx_stage_new (DynoBackend *backend)
{
  DynoTxStage *self = g_object_new (DYNO_TYPE_TX_STAGE, NULL);

  g_weak_ref_set (&self->backend, backend);
  return self;
}

/* backend -> its DynoTxStage (owned), while the backend lives; main thread only */
static GHashTable *stages;

static void
backend_finalized_cb (gpointer  data,
                      GObject  *backend)
{
  g_hash_table_remove (stages, backend);
}

DynoTxStage *
dyno_tx_stage_for_backend (DynoBackend *backend)
{
  DynoTxStage *self;

  g_return_val_if_fail (DYNO_IS_BACKEND (backend), NULL);

  if (stages == NULL)
    stages = g_hash_table_new_full (NULL, NULL, NULL, g_object_unref);
  self = g_hash_table_lookup (stages, backend);
  if (self == NULL)
    {
      self = dyno_tx_stage_new (backend);
      g_hash_table_insert (stages, backend, self);
      g_object_weak_ref (G_OBJECT (backend), backend_finalized_cb, NULL);
    }
  return self;
}

guint
dyno_tx_stage_get_n_writes (DynoTxStage *self)
{
  g_return_val_if_fail (DYNO_IS_TX_STAGE (self), 0);
  return self->writes->len;
}

gboolean
dyno_tx_stage_add (DynoTxStage        *self,
                   DynoTransactAction  action,
                   const DynoRequest  *request,
                   const DynoItem     *key,
                   GError            **error)
{
  Staged *staged;

  g_return_val_if_fail (DYNO_IS_TX_STAGE (self), FALSE);
  g_return_val_if_fail (action != DYNO_TRANSACT_GET, FALSE);
  g_return_val_if_fail (request != NULL && key != NULL, FALSE);

  if (self->committing)
    {
      g_set_error_literal (error, DYNO_ERROR, DYNO_ERROR_VALIDATION,
                           _("The transaction is being committed"));
      return FALSE;
    }
  if (self->writes->len >= DYNO_TRANSACT_MAX_ITEMS)
    {
      g_set_error (error, DYNO_ERROR, DYNO_ERROR_VALIDATION,
                   _("A transaction holds at most %u writes"), DYNO_TRANSACT_MAX_ITEMS);
      return FALSE;
    }
  for (guint i = 0; i < self->writes->len; i++)
    {
      Staged *other = g_ptr_array_index (self->writes, i);

      if (g_strcmp0 (other->item.request->table_name, request->table_name) == 0 &&
          dyno_item_equal (other->key, key))
        {
          g_set_error (error, DYNO_ERROR, DYNO_ERROR_VALIDATION,
                       _("The transaction already holds a write on this item of “%s”: "
                         "a transaction can hold one action per item"),
                       request->table_name);
          return FALSE;
        }
    }

  staged = g_new0 (Staged, 1);
  staged->item.action = action;
  staged->item.request = dyno_request_copy (request);
  staged->key = dyno_item_ref ((DynoItem *) key);
  g_ptr_array_add (self->writes, staged);
  set_changed (self);
  return TRUE;
}

void
dyno_tx_stage_remove (DynoTxStage *self,
                      guint        index)
{
  g_return_if_fail (DYNO_IS_TX_STAGE (self));
  g_return_if_fail (index < self->writes->len);
  g_return_if_fail (!self->committing);

  g_ptr_array_remove_index (self->writes, index);
  set_changed (self);
}

void
dyno_tx_stage_clear (DynoTxStage *self)
{
  g_return_if_fail (DYNO_IS_TX_STAGE (self));
  g_return_if_fail (!self->committing);

  g_ptr_array_set_size (self->writes, 0);
  set_changed (self);
}

static Staged *
get_staged (DynoTxStage *self,
            guint        index)
{
  g_return_val_if_fail (DYNO_IS_TX_STAGE (self), NULL);
  g_return_val_if_fail (index < self->writes->len, NULL);
  return g_ptr_array_index (self->writes, index);
}

DynoTransactAction
dyno_tx_stage_get_action (DynoTxStage *self,
                          guint        index)
{
  Staged *staged = get_staged (self, index);

  return staged ? staged->item.action : DYNO_TRANSACT_PUT;
}

const DynoRequest *
dyno_tx_stage_get_request (DynoTxStage *self,
                           guint        index)
{
  Staged *staged = get_staged (self, index);

  return staged ? staged->item.request : NULL;
}

const DynoItem *
dyno_tx_stage_get_key (DynoTxStage *self,
                       guint        index)
{
  Staged *staged = get_staged (self, index);

  return staged ? staged->key : NULL;
}

const char *
dyno_tx_stage_get_reason_code (DynoTxStage *self,
                               guint        index)
{
  Staged *staged = get_staged (self, index);

  return staged ? staged->reason_code : NULL;
}

const char *
dyno_tx_stage_get_reason_message (DynoTxStage *self,
                                  guint        index)
{
  Staged *staged = get_staged (self, index);

  return staged ? staged->reason_message : NULL;
}

const char *
dyno_tx_stage_get_token (DynoTxStage *self)
{
  g_return_val_if_fail (DYNO_IS_TX_STAGE (self), NULL);

  if (self->token == NULL)
    self->token = g_uuid_string_random ();
  return self->token;
}

gboolean
dyno_tx_stage_get_committing (DynoTxStage *self)
{
  g_return_val_if_fail (DYNO_IS_TX_STAGE (self), FALSE);
  return self->committing;
}

JsonNode *
dyno_tx_stage_build_request (DynoTxStage *self)
{
  g_autoptr(GPtrArray) items = g_ptr_array_new ();

  g_return_val_if_fail (DYNO_IS_TX_STAGE (self), NULL);

  if (self->writes->len == 0)
    return NULL;
  for (guint i = 0; i < self->writes->len; i++)
    g_ptr_array_add (items, &((Staged *) g_ptr_array_index (self->writes, i))->item);
  return dyno_transact_items_to_request (items, dyno_tx_stage_get_token (self));
}

static void
commit_done_cb (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  DynoTxStage *self = g_task_get_source_object (task);
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) response = NULL;
  const DynoServiceError *info;

  response = dyno_backend_call_json_finish (DYNO_BACKEND (source), result, &error);
  self->committing = FALSE;

  if (response != NULL)
    {
      g_autoptr(GPtrArray) tables = g_ptr_array_new_with_free_func (g_free);

      for (guint i = 0; i < self->writes->len; i++)
        {
          Staged *staged = g_ptr_array_index (self->writes, i);

          if (!g_ptr_array_find_with_equal_func (tables, staged->item.request->table_name,
                                                 g_str_equal, NULL))
            g_ptr_array_add (tables, g_strdup (staged->item.request->table_name));
        }
      g_ptr_array_add (tables, NULL);
      g_ptr_array_set_size (self->writes, 0);
      set_changed (self);
      g_signal_emit (self, signals[SIGNAL_COMMITTED], 0, (GStrv) tables->pdata);
      g_task_return_boolean (task, TRUE);
      return;
    }

  /* Refused: each write gets its reason, and the set (and its token) stays as it is.  The
   * reasons are in the order of the request's items, which is the order staged. */
  clear_reasons (self);
  info = dyno_error_get_service_info (error);
  if (info != NULL && info->cancellation_reasons != NULL)
    for (guint i = 0; i < info->cancellation_reasons->len && i < self->writes->len; i++)
      {
        const DynoCancellationReason *reason = g_ptr_array_index (info->cancellation_reasons, i);
        Staged *staged = g_ptr_array_index (self->writes, i);

        staged->reason_code = g_strdup (reason->code);
        staged->reason_message = g_strdup (reason->message);
      }
  g_signal_emit (self, signals[SIGNAL_CHANGED], 0);
  g_task_return_error (task, g_steal_pointer (&error));
}

void
dyno_tx_stage_commit_async (DynoTxStage         *self,
                            GCancellable        *cancellable,
                            GAsyncReadyCallback  callback,
                            gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(DynoBackend) backend = NULL;
  g_autoptr(JsonNode) body = NULL;

  g_return_if_fail (DYNO_IS_TX_STAGE (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, dyno_tx_stage_commit_async);

  backend = g_weak_ref_get (&self->backend);
  if (self->committing)
    {
      g_task_return_new_error (task, DYNO_ERROR, DYNO_ERROR_VALIDATION,
                               _("The transaction is being committed"));
      return;
    }
  if (backend == NULL || self->writes->len == 0)
    {
      g_task_return_new_error (task, DYNO_ERROR, DYNO_ERROR_VALIDATION,
                               _("No writes are staged"));
      return;
    }

  body = dyno_tx_stage_build_request (self);
  self->committing = TRUE;
  g_signal_emit (self, signals[SIGNAL_CHANGED], 0);
  dyno_backend_call_json_async (backend, "TransactWriteItems", body, cancellable,
                                commit_done_cb, g_steal_pointer (&task));
}

gboolean
dyno_tx_stage_commit_finish (DynoTxStage   *self,
                             GAsyncResult  *result,
                             GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}

static void
dyno_tx_stage_finalize (GObject *object)
{
  DynoTxStage *self = DYNO_TX_STAGE (object);

  g_weak_ref_clear (&self->backend);
  g_ptr_array_unref (self->writes);
  g_free (self->token);
  G_OBJECT_CLASS (dyno_tx_stage_parent_class)->finalize (object);
}

static void
dyno_tx_stage_class_init (DynoTxStageClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = dyno_tx_stage_finalize;

  signals[SIGNAL_CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass),
                                          G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                          G_TYPE_NONE, 0);
  signals[SIGNAL_COMMITTED] = g_signal_new ("committed", G_TYPE_FROM_CLASS (klass),
                                            G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                            G_TYPE_NONE, 1, G_TYPE_STRV);
}

static void
dyno_tx_stage_init (DynoTxStage *self)
{
  g_weak_ref_init (&self->backend, NULL);
  self->writes = g_ptr_array_new_with_free_func ((GDestroyNotify) staged_free);
}
