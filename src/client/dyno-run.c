/* dyno-run.c: a paginated Query, Scan or PartiQL statement as a list model, with its page
 * ledger
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "dyno-run.h"

#include <glib/gi18n-lib.h>

#include "dyno-error.h"
#include "dyno-item-object.h"
#include "dyno-run-page-private.h"

/* ---- DynoRun ----------------------------------------------------------------------------- */

typedef struct {
  guint     index;
  DynoItem *next_key;   /* ExclusiveStartKey of its next page; NULL before the first */
  char     *next_token; /* a statement's: NextToken of its next page; NULL before the first */
  gboolean  done;       /* the last page had no LastEvaluatedKey (a statement's: NextToken) */
  gboolean  in_flight;
  guint     n_pages;
} Segment;

struct _DynoRun
{
  GObject       parent_instance;

  DynoBackend  *backend;
  DynoRequest  *request;        /* NULL for a statement run */
  DynoStatement *statement;     /* NULL for a request run */
  GPtrArray    *items;          /* DynoItem* */
  gboolean      keep_items;     /* FALSE: the model holds the latest page only */
  guint         n_dropped;      /* items taken out of the model as the next page came */
  GStrv         lek_names;      /* the attribute names of the first key seen in a page */
  GListStore   *pages;          /* DynoRunPage */
  GQueue        leftovers;      /* DynoItem*: beyond max-items, not yet in the model */
  Segment      *segments;
  guint         n_segments;     /* of the current start() */
  guint         segments_setting;
  guint         parallel;       /* segments with a request in flight, at most */
  guint         n_done;         /* segments whose last page came */
  guint         cursor;         /* segments before it are done */
  guint64       max_items;
  GStrv         key_names;      /* for resume keys made from an item */
  DynoItem     *resume_key;     /* made by get_resume_key() */

  GCancellable *cancellable;
  guint         generation;     /* bumped by start(): late answers of older runs are dropped */
  guint         n_in_flight;
  gboolean      started;
  gboolean      load_all;
  gboolean      cancel_requested;

  /* What the properties last said, to notify only on change. */
  gboolean      loading;
  gboolean      has_more;
  gboolean      cancelled;
  GError       *error;
  double        consumed_capacity;
  gint64        scanned_count;
  guint         n_read_pages;   /* the ledger's pages; the rest of its lines are writes */
  double        write_capacity; /* -1 until a write reported its ConsumedCapacity */

  GPtrArray    *waiters;        /* GTask*: load_all_async() */

  guint         hold_count;     /* dyno_run_hold_items() */
  GPtrArray    *held;           /* DynoItem*: let go of while held, freed on release */
};

static void dyno_run_list_model_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (DynoRun, dyno_run, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL,
                                                      dyno_run_list_model_init))

enum {
  PROP_0,
  PROP_BACKEND,
  PROP_LOADING,
  PROP_HAS_MORE,
  PROP_N_PAGES,
  PROP_N_ITEMS,
  PROP_CONSUMED_CAPACITY,
  PROP_SCANNED_COUNT,
  PROP_ERROR,
  PROP_CANCELLED,
  PROP_MAX_ITEMS,
  PROP_SEGMENTS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

typedef struct {
  DynoRun  *run;
  guint     generation;
  guint     segment;
  DynoItem *start_key;
  char     *start_token; /* a statement's page: the NextToken it was asked with */
} PageRequest;

static void
page_request_free (PageRequest *request)
{
  g_clear_object (&request->run);
  g_clear_pointer (&request->start_key, dyno_item_unref);
  g_free (request->start_token);
  g_free (request);
}

/* Every item handed out so far, kept in the model or not. */
static guint
n_delivered (DynoRun *self)
{
  return self->n_dropped + self->items->len;
}

static gboolean
reached_max (DynoRun *self)
{
  return self->max_items > 0 && n_delivered (self) >= self->max_items;
}

/* An item the run no longer shows: freed, unless readers on other threads hold the items. */
static void
let_go (DynoRun  *self,
        DynoItem *item)
{
  if (self->hold_count > 0)
    g_ptr_array_add (self->held, item);
  else
    dyno_item_unref (item);
}

/* Every item out of the model, as let_go() does for one. */
static void
let_go_all (DynoRun *self)
{
  if (self->hold_count > 0)
    {
      gsize n = 0;
      gpointer *stolen = g_ptr_array_steal (self->items, &n);

      for (gsize i = 0; i < n; i++)
        g_ptr_array_add (self->held, stolen[i]);
      g_free (stolen);
    }
  else
    g_ptr_array_set_size (self->items, 0);
}

/* keep-items FALSE: the items handed out before are taken out of the model (one
 * items-changed) before new ones come, so that memory stays that of a page. */
static void
drop_delivered (DynoRun *self)
{
  guint n = self->items->len;

  if (self->keep_items || n == 0)
    return;
  self->n_dropped += n;
  let_go_all (self);
  g_list_model_items_changed (G_LIST_MODEL (self), 0, n, 0);
}

static gboolean
compute_has_more (DynoRun *self)
{
  if (!self->started)
    return FALSE;
  if (!g_queue_is_empty (&self->leftovers))
    return TRUE;
  return self->n_done < self->n_segments;
}

static void
complete_waiters (DynoRun *self)
{
  g_autoptr(GPtrArray) waiters = NULL;

  if (self->waiters->len == 0)
    return;

  waiters = g_steal_pointer (&self->waiters);
  self->waiters = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint i = 0; i < waiters->len; i++)
    {
      GTask *task = g_ptr_array_index (waiters, i);

      if (self->cancelled)
        g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED,
                                 _("The run was cancelled."));
      else if (self->error != NULL)
        g_task_return_error (task, g_error_copy (self->error));
      else
        g_task_return_boolean (task, TRUE);
    }
}

/* Recomputes loading/has-more and notifies what changed. */
static void
sync_state (DynoRun *self)
{
  gboolean loading = self->n_in_flight > 0;
  gboolean has_more = compute_has_more (self);

  if (!loading && self->cancel_requested)
    {
      self->cancel_requested = FALSE;
      self->load_all = FALSE;
      if (!self->cancelled)
        {
          self->cancelled = TRUE;
          g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CANCELLED]);
        }
    }

  if (has_more != self->has_more)
    {
      self->has_more = has_more;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_HAS_MORE]);
    }

  if (loading != self->loading)
    {
      self->loading = loading;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOADING]);
    }

  if (!loading)
    complete_waiters (self);
}

static void request_page (DynoRun *self,
                          Segment *segment);

/* The next page of idle segments that have more, in segment order, while fewer than
 * `parallel` requests are in flight: a scan over thousands of segments keeps a few busy and
 * streams their pages instead of sending them all at once. */
static void
request_segments (DynoRun *self)
{
  while (self->cursor < self->n_segments && self->segments[self->cursor].done)
    self->cursor++;

  for (guint i = self->cursor; i < self->n_segments && self->n_in_flight < self->parallel; i++)
    {
      Segment *segment = &self->segments[i];

      if (!segment->done && !segment->in_flight)
        request_page (self, segment);
    }
}

/* Asks for the next page of every idle segment that has more, unless stopped. */
static void
request_more (DynoRun *self)
{
  if (self->error != NULL || self->cancel_requested || reached_max (self)
      || !g_queue_is_empty (&self->leftovers))
    return;

  request_segments (self);
}

static void
append_items (DynoRun   *self,
              GPtrArray *items,
              guint      from,
              guint     *out_position,
              guint     *out_n_added)
{
  guint position;
  guint n = 0;

  if (items != NULL && items->len > from && !reached_max (self)
      && g_queue_is_empty (&self->leftovers))
    drop_delivered (self);
  position = self->items->len;
  for (guint i = from; items != NULL && i < items->len; i++)
    {
      DynoItem *item = g_ptr_array_index (items, i);

      if (reached_max (self) || !g_queue_is_empty (&self->leftovers))
        g_queue_push_tail (&self->leftovers, dyno_item_ref (item));
      else
        {
          g_ptr_array_add (self->items, dyno_item_ref (item));
          n++;
        }
    }

  if (out_position != NULL)
    *out_position = position;
  if (out_n_added != NULL)
    *out_n_added = n;
}

/* Moves kept-aside items into the model while there is room: one items-changed. */
static void
drain_leftovers (DynoRun *self)
{
  guint position;
  guint n = 0;

  if (!g_queue_is_empty (&self->leftovers) && !reached_max (self))
    drop_delivered (self);
  position = self->items->len;

  while (!g_queue_is_empty (&self->leftovers) && !reached_max (self))
    {
      g_ptr_array_add (self->items, g_queue_pop_head (&self->leftovers));
      n++;
    }

  if (n > 0)
    {
      g_list_model_items_changed (G_LIST_MODEL (self), position, 0, n);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_ITEMS]);
    }
}

static void
add_page (DynoRun  *self,
          Segment  *segment,
          DynoPage *page,
          DynoItem *start_key)
{
  g_autoptr(DynoRunPage) record = g_object_new (DYNO_TYPE_RUN_PAGE, NULL);
  guint position = 0;
  guint n_added = 0;

  /* Kept-aside items come before this page's: server order within a segment. */
  append_items (self, page->items, 0, &position, &n_added);

  record->index = self->n_read_pages++;
  record->segment = segment->index;
  record->count = page->count;
  record->scanned_count = page->scanned_count;
  record->consumed_capacity = page->consumed_capacity;
  record->consumed_capacity_json = g_strdup (page->consumed_capacity_json);
  record->last_evaluated_key = page->last_evaluated_key
                               ? dyno_item_ref (page->last_evaluated_key) : NULL;
  record->start_key = start_key ? dyno_item_ref (start_key) : NULL;
  record->next_token = g_strdup (page->next_token);
  record->statement = self->statement != NULL;
  record->bytes = page->bytes;
  record->elapsed_usec = page->elapsed_usec;
  record->position = self->n_dropped + position;
  record->n_items = n_added;
  if (self->lek_names == NULL && (page->last_evaluated_key != NULL || start_key != NULL))
    {
      const DynoValue *map = dyno_item_get_map (page->last_evaluated_key != NULL
                                                ? page->last_evaluated_key : start_key);
      g_autoptr(GStrvBuilder) names = g_strv_builder_new ();

      for (guint i = 0; i < dyno_value_get_n_children (map); i++)
        g_strv_builder_add (names, dyno_value_get_member_name (map, i, NULL));
      self->lek_names = g_strv_builder_end (names);
    }

  if (self->statement != NULL)
    {
      /* A statement continues with NextToken (a LastEvaluatedKey it may also send is not
       * where it resumes).  A write runs once, as the CLI's partiql does. */
      g_free (segment->next_token);
      segment->next_token = g_strdup (page->next_token);
      segment->done = page->next_token == NULL || !dyno_statement_is_select (self->statement);
    }
  else
    {
      g_clear_pointer (&segment->next_key, dyno_item_unref);
      segment->next_key = page->last_evaluated_key ? dyno_item_ref (page->last_evaluated_key)
                                                   : NULL;
      segment->done = page->last_evaluated_key == NULL;
    }
  if (segment->done)
    self->n_done++;
  segment->n_pages++;

  /* Loading all: the next page is asked for before this one is handed out, so that the
   * server works on it while the consumer (the CLI's output) takes this one. */
  if (self->load_all)
    request_more (self);

  /* One items-changed per page (nothing when max-items kept it all aside). */
  if (n_added > 0)
    g_list_model_items_changed (G_LIST_MODEL (self), position, 0, n_added);
  /* Not keeping items, the ledger keeps its latest page only (pages are counted). */
  if (!self->keep_items)
    g_list_store_remove_all (self->pages);
  g_list_store_append (self->pages, record);

  if (page->consumed_capacity >= 0)
    {
      self->consumed_capacity = MAX (self->consumed_capacity, 0) + page->consumed_capacity;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CONSUMED_CAPACITY]);
    }
  self->scanned_count += page->scanned_count;

  if (n_added > 0)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_ITEMS]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SCANNED_COUNT]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_PAGES]);
}

static void
set_error (DynoRun *self,
           GError  *error)
{
  g_clear_error (&self->error);
  self->error = error;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ERROR]);
}

static void
page_loaded_cb (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  PageRequest *request = user_data;
  g_autoptr(DynoRun) self = g_object_ref (request->run);
  g_autoptr(DynoPage) page = NULL;
  g_autoptr(GError) error = NULL;
  Segment *segment;

  if (self->statement != NULL)
    page = dyno_backend_run_statement_page_finish (DYNO_BACKEND (source), result, &error);
  else
    page = dyno_backend_run_page_finish (DYNO_BACKEND (source), result, &error);

  if (request->generation != self->generation)
    {
      page_request_free (request);
      return;
    }

  segment = &self->segments[request->segment];
  segment->in_flight = FALSE;
  self->n_in_flight--;

  g_object_freeze_notify (G_OBJECT (self));

  if (page != NULL)
    add_page (self, segment, page, request->start_key);
  else if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    ; /* sync_state() reports it once every request has returned */
  else
    {
      /* The segment stays where it was: load_more() asks for the same page again. */
      self->load_all = FALSE;
      if (self->error == NULL)
        set_error (self, g_steal_pointer (&error));
    }

  if (self->load_all)
    request_more (self);

  sync_state (self);
  g_object_thaw_notify (G_OBJECT (self));

  page_request_free (request);
}

static void
request_page (DynoRun *self,
              Segment *segment)
{
  g_autoptr(DynoRequest) copy = NULL;
  const DynoRequest *request = self->request;
  PageRequest *page_request;

  g_assert (!segment->in_flight && !segment->done);

  if (self->statement != NULL)
    {
      page_request = g_new0 (PageRequest, 1);
      page_request->run = g_object_ref (self);
      page_request->generation = self->generation;
      page_request->segment = segment->index;
      page_request->start_token = g_strdup (segment->next_token);

      segment->in_flight = TRUE;
      self->n_in_flight++;

      dyno_backend_run_statement_page_async (self->backend, self->statement,
                                             segment->next_token, self->cancellable,
                                             page_loaded_cb, page_request);
      return;
    }

  if (self->n_segments > 1)
    {
      copy = dyno_request_copy (self->request);
      copy->segment = segment->index;
      copy->total_segments = self->n_segments;
      request = copy;
    }

  page_request = g_new0 (PageRequest, 1);
  page_request->run = g_object_ref (self);
  page_request->generation = self->generation;
  page_request->segment = segment->index;
  if (segment->next_key != NULL)
    page_request->start_key = dyno_item_ref (segment->next_key);
  else if (segment->n_pages == 0 && request->exclusive_start_key != NULL)
    page_request->start_key = dyno_item_ref (request->exclusive_start_key);

  segment->in_flight = TRUE;
  self->n_in_flight++;

  dyno_backend_run_page_async (self->backend, request, segment->next_key, self->cancellable,
                               page_loaded_cb, page_request);
}

static void
reset (DynoRun *self)
{
  guint n_items = self->items->len;
  gboolean had_items = n_delivered (self) > 0;

  self->generation++;
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();
  self->n_in_flight = 0;
  self->cancel_requested = FALSE;
  self->load_all = FALSE;

  for (guint i = 0; i < self->n_segments; i++)
    {
      g_clear_pointer (&self->segments[i].next_key, dyno_item_unref);
      g_clear_pointer (&self->segments[i].next_token, g_free);
    }
  g_clear_pointer (&self->segments, g_free);
  self->n_segments = 0;
  self->n_done = 0;
  self->cursor = 0;
  g_queue_clear_full (&self->leftovers, (GDestroyNotify) dyno_item_unref);

  g_clear_pointer (&self->lek_names, g_strfreev);
  self->n_dropped = 0;
  if (n_items > 0)
    {
      let_go_all (self);
      g_list_model_items_changed (G_LIST_MODEL (self), 0, n_items, 0);
    }
  if (had_items)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_ITEMS]);
  if (g_list_model_get_n_items (G_LIST_MODEL (self->pages)) > 0)
    {
      g_list_store_remove_all (self->pages);
      self->n_read_pages = 0;
      self->write_capacity = -1;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_PAGES]);
    }
  if (self->error != NULL)
    set_error (self, NULL);
  if (self->cancelled)
    {
      self->cancelled = FALSE;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CANCELLED]);
    }
  if (self->consumed_capacity != -1)
    {
      self->consumed_capacity = -1;
  self->write_capacity = -1;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CONSUMED_CAPACITY]);
    }
  if (self->scanned_count != 0)
    {
      self->scanned_count = 0;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SCANNED_COUNT]);
    }
}

static void
start_internal (DynoRun  *self,
                DynoItem *start_key)
{
  g_object_freeze_notify (G_OBJECT (self));

  reset (self);

  self->n_segments = 1;
  if (self->request != NULL && self->request->operation == DYNO_OP_SCAN
      && self->segments_setting > 1 && start_key == NULL)
    self->n_segments = self->segments_setting;
  self->segments = g_new0 (Segment, self->n_segments);
  for (guint i = 0; i < self->n_segments; i++)
    self->segments[i].index = i;
  if (start_key != NULL)
    self->segments[0].next_key = dyno_item_ref (start_key);

  self->started = TRUE;
  request_segments (self);

  sync_state (self);
  g_object_thaw_notify (G_OBJECT (self));
}

/* ---- GListModel -------------------------------------------------------------------------- */

static GType
dyno_run_get_item_type (GListModel *model)
{
  return DYNO_TYPE_ITEM_OBJECT;
}

static guint
dyno_run_list_get_n_items (GListModel *model)
{
  return DYNO_RUN (model)->items->len;
}

static gpointer
dyno_run_list_get_item (GListModel *model,
                        guint       position)
{
  DynoRun *self = DYNO_RUN (model);

  if (position >= self->items->len)
    return NULL;

  return dyno_item_object_new (g_ptr_array_index (self->items, position), position);
}

static void
dyno_run_list_model_init (GListModelInterface *iface)
{
  iface->get_item_type = dyno_run_get_item_type;
  iface->get_n_items = dyno_run_list_get_n_items;
  iface->get_item = dyno_run_list_get_item;
}

/* ---- object ------------------------------------------------------------------------------ */

static void
dyno_run_dispose (GObject *object)
{
  DynoRun *self = DYNO_RUN (object);

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);

  G_OBJECT_CLASS (dyno_run_parent_class)->dispose (object);
}

static void
dyno_run_finalize (GObject *object)
{
  DynoRun *self = DYNO_RUN (object);

  g_clear_object (&self->backend);
  g_clear_pointer (&self->request, dyno_request_free);
  g_clear_pointer (&self->statement, dyno_statement_free);
  g_clear_pointer (&self->items, g_ptr_array_unref);
  g_clear_pointer (&self->held, g_ptr_array_unref);
  g_clear_object (&self->pages);
  g_queue_clear_full (&self->leftovers, (GDestroyNotify) dyno_item_unref);
  g_clear_pointer (&self->key_names, g_strfreev);
  g_clear_pointer (&self->lek_names, g_strfreev);
  g_clear_pointer (&self->resume_key, dyno_item_unref);
  for (guint i = 0; i < self->n_segments; i++)
    {
      g_clear_pointer (&self->segments[i].next_key, dyno_item_unref);
      g_free (self->segments[i].next_token);
    }
  g_free (self->segments);
  g_clear_object (&self->cancellable);
  g_clear_error (&self->error);
  g_clear_pointer (&self->waiters, g_ptr_array_unref);

  G_OBJECT_CLASS (dyno_run_parent_class)->finalize (object);
}

static void
dyno_run_get_property (GObject    *object,
                       guint       prop_id,
                       GValue     *value,
                       GParamSpec *pspec)
{
  DynoRun *self = DYNO_RUN (object);

  switch (prop_id)
    {
    case PROP_BACKEND:
      g_value_set_object (value, self->backend);
      break;
    case PROP_LOADING:
      g_value_set_boolean (value, self->loading);
      break;
    case PROP_HAS_MORE:
      g_value_set_boolean (value, self->has_more);
      break;
    case PROP_N_PAGES:
      g_value_set_uint (value, dyno_run_get_n_pages (self));
      break;
    case PROP_N_ITEMS:
      g_value_set_uint (value, n_delivered (self));
      break;
    case PROP_CONSUMED_CAPACITY:
      g_value_set_double (value, self->consumed_capacity);
      break;
    case PROP_SCANNED_COUNT:
      g_value_set_int64 (value, self->scanned_count);
      break;
    case PROP_ERROR:
      g_value_set_boxed (value, self->error);
      break;
    case PROP_CANCELLED:
      g_value_set_boolean (value, self->cancelled);
      break;
    case PROP_MAX_ITEMS:
      g_value_set_uint64 (value, self->max_items);
      break;
    case PROP_SEGMENTS:
      g_value_set_uint (value, self->segments_setting);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
dyno_run_set_property (GObject      *object,
                       guint         prop_id,
                       const GValue *value,
                       GParamSpec   *pspec)
{
  DynoRun *self = DYNO_RUN (object);

  switch (prop_id)
    {
    case PROP_BACKEND:
      self->backend = g_value_dup_object (value);
      break;
    case PROP_MAX_ITEMS:
      dyno_run_set_max_items (self, g_value_get_uint64 (value));
      break;
    case PROP_SEGMENTS:
      dyno_run_set_segments (self, g_value_get_uint (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
dyno_run_class_init (DynoRunClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  const GParamFlags ro = G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;
  const GParamFlags rw = G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->dispose = dyno_run_dispose;
  object_class->finalize = dyno_run_finalize;
  object_class->get_property = dyno_run_get_property;
  object_class->set_property = dyno_run_set_property;

  properties[PROP_BACKEND] =
    g_param_spec_object ("backend", NULL, NULL, DYNO_TYPE_BACKEND,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_LOADING] = g_param_spec_boolean ("loading", NULL, NULL, FALSE, ro);
  properties[PROP_HAS_MORE] = g_param_spec_boolean ("has-more", NULL, NULL, FALSE, ro);
  properties[PROP_N_PAGES] = g_param_spec_uint ("n-pages", NULL, NULL, 0, G_MAXUINT, 0, ro);
  properties[PROP_N_ITEMS] = g_param_spec_uint ("n-items", NULL, NULL, 0, G_MAXUINT, 0, ro);
  properties[PROP_CONSUMED_CAPACITY] =
    g_param_spec_double ("consumed-capacity", NULL, NULL, -1, G_MAXDOUBLE, -1, ro);
  properties[PROP_SCANNED_COUNT] =
    g_param_spec_int64 ("scanned-count", NULL, NULL, 0, G_MAXINT64, 0, ro);
  properties[PROP_ERROR] = g_param_spec_boxed ("error", NULL, NULL, G_TYPE_ERROR, ro);
  properties[PROP_CANCELLED] = g_param_spec_boolean ("cancelled", NULL, NULL, FALSE, ro);
  properties[PROP_MAX_ITEMS] =
    g_param_spec_uint64 ("max-items", NULL, NULL, 0, G_MAXUINT64, 0, rw);
  properties[PROP_SEGMENTS] = g_param_spec_uint ("segments", NULL, NULL, 1, 1000000, 1, rw);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
dyno_run_init (DynoRun *self)
{
  self->items = g_ptr_array_new_with_free_func ((GDestroyNotify) dyno_item_unref);
  self->held = g_ptr_array_new_with_free_func ((GDestroyNotify) dyno_item_unref);
  self->keep_items = TRUE;
  self->pages = g_list_store_new (DYNO_TYPE_RUN_PAGE);
  g_queue_init (&self->leftovers);
  self->segments_setting = 1;
  self->parallel = DYNO_RUN_DEFAULT_PARALLEL;
  self->consumed_capacity = -1;
  self->write_capacity = -1;
  self->cancellable = g_cancellable_new ();
  self->waiters = g_ptr_array_new_with_free_func (g_object_unref);
}

/* ---- public API -------------------------------------------------------------------------- */

DynoRun *
dyno_run_new (DynoBackend       *backend,
              const DynoRequest *request)
{
  DynoRun *self;

  g_return_val_if_fail (DYNO_IS_BACKEND (backend), NULL);
  g_return_val_if_fail (request != NULL, NULL);
  g_return_val_if_fail (request->operation == DYNO_OP_QUERY
                        || request->operation == DYNO_OP_SCAN, NULL);

  self = g_object_new (DYNO_TYPE_RUN, "backend", backend, NULL);
  self->request = dyno_request_copy (request);

  return self;
}

DynoRun *
dyno_run_new_for_statement (DynoBackend         *backend,
                            const DynoStatement *statement)
{
  DynoRun *self;

  g_return_val_if_fail (DYNO_IS_BACKEND (backend), NULL);
  g_return_val_if_fail (statement != NULL, NULL);
  g_return_val_if_fail (statement->statement != NULL, NULL);

  self = g_object_new (DYNO_TYPE_RUN, "backend", backend, NULL);
  self->statement = dyno_statement_copy (statement);

  return self;
}

const DynoStatement *
dyno_run_get_statement (DynoRun *self)
{
  g_return_val_if_fail (DYNO_IS_RUN (self), NULL);
  return self->statement;
}

DynoBackend *
dyno_run_get_backend (DynoRun *self)
{
  g_return_val_if_fail (DYNO_IS_RUN (self), NULL);
  return self->backend;
}

const DynoRequest *
dyno_run_get_request (DynoRun *self)
{
  g_return_val_if_fail (DYNO_IS_RUN (self), NULL);
  return self->request;
}

void
dyno_run_set_max_items (DynoRun *self,
                        guint64  max_items)
{
  g_return_if_fail (DYNO_IS_RUN (self));

  if (self->max_items == max_items)
    return;

  self->max_items = max_items;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MAX_ITEMS]);
}

guint64
dyno_run_get_max_items (DynoRun *self)
{
  g_return_val_if_fail (DYNO_IS_RUN (self), 0);
  return self->max_items;
}

void
dyno_run_set_segments (DynoRun *self,
                       guint    n_segments)
{
  g_return_if_fail (DYNO_IS_RUN (self));
  g_return_if_fail (n_segments >= 1 && n_segments <= 1000000);
  g_return_if_fail (n_segments == 1 || self->request != NULL);

  if (self->segments_setting == n_segments)
    return;

  self->segments_setting = n_segments;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SEGMENTS]);
}

void
dyno_run_set_parallel (DynoRun *self,
                       guint    parallel)
{
  g_return_if_fail (DYNO_IS_RUN (self));
  g_return_if_fail (parallel >= 1);

  self->parallel = parallel;
  if (self->load_all)
    request_segments (self);
}

guint
dyno_run_get_parallel (DynoRun *self)
{
  g_return_val_if_fail (DYNO_IS_RUN (self), DYNO_RUN_DEFAULT_PARALLEL);
  return self->parallel;
}

guint
dyno_run_get_segments (DynoRun *self)
{
  g_return_val_if_fail (DYNO_IS_RUN (self), 1);
  return self->segments_setting;
}

void
dyno_run_start (DynoRun *self)
{
  g_return_if_fail (DYNO_IS_RUN (self));

  start_internal (self, NULL);
}

void
dyno_run_start_from (DynoRun  *self,
                     DynoItem *start_key)
{
  g_return_if_fail (DYNO_IS_RUN (self));
  g_return_if_fail (start_key != NULL);
  g_return_if_fail (self->request != NULL);

  start_internal (self, start_key);
}

void
dyno_run_load_more (DynoRun *self)
{
  g_return_if_fail (DYNO_IS_RUN (self));

  if (!self->started)
    {
      dyno_run_start (self);
      return;
    }

  g_object_freeze_notify (G_OBJECT (self));

  /* Resuming after an error or a cancel: the segments are where they stopped. */
  if (self->error != NULL)
    set_error (self, NULL);
  if (self->cancelled && self->n_in_flight == 0)
    {
      self->cancelled = FALSE;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CANCELLED]);
    }

  drain_leftovers (self);
  request_more (self);
  sync_state (self);

  g_object_thaw_notify (G_OBJECT (self));
}

void
dyno_run_load_all (DynoRun *self)
{
  g_return_if_fail (DYNO_IS_RUN (self));

  if (!self->started)
    {
      start_internal (self, NULL);
      self->load_all = TRUE;
      return;
    }

  self->load_all = TRUE;
  dyno_run_load_more (self);
}

void
dyno_run_cancel (DynoRun *self)
{
  g_return_if_fail (DYNO_IS_RUN (self));

  self->load_all = FALSE;
  if (self->n_in_flight == 0)
    return;

  self->cancel_requested = TRUE;
  g_cancellable_cancel (self->cancellable);
  /* Requests from now on use a fresh cancellable; the cancelled ones still count in
   * n_in_flight until they return. */
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();
}

void
dyno_run_load_all_async (DynoRun             *self,
                         GAsyncReadyCallback  callback,
                         gpointer             user_data)
{
  GTask *task;

  g_return_if_fail (DYNO_IS_RUN (self));

  task = g_task_new (self, NULL, callback, user_data);
  g_task_set_source_tag (task, dyno_run_load_all_async);
  g_ptr_array_add (self->waiters, task);

  dyno_run_load_all (self);
  if (!self->loading)
    complete_waiters (self);
}

gboolean
dyno_run_load_all_finish (DynoRun       *self,
                          GAsyncResult  *result,
                          GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

gboolean
dyno_run_get_loading (DynoRun *self)
{
  g_return_val_if_fail (DYNO_IS_RUN (self), FALSE);
  return self->loading;
}

gboolean
dyno_run_get_has_more (DynoRun *self)
{
  g_return_val_if_fail (DYNO_IS_RUN (self), FALSE);
  return self->has_more;
}

gboolean
dyno_run_get_cancelled (DynoRun *self)
{
  g_return_val_if_fail (DYNO_IS_RUN (self), FALSE);
  return self->cancelled;
}

const GError *
dyno_run_get_error (DynoRun *self)
{
  g_return_val_if_fail (DYNO_IS_RUN (self), NULL);
  return self->error;
}

guint
dyno_run_get_n_pages (DynoRun *self)
{
  g_return_val_if_fail (DYNO_IS_RUN (self), 0);
  return self->n_read_pages;
}

GListModel *
dyno_run_get_pages (DynoRun *self)
{
  g_return_val_if_fail (DYNO_IS_RUN (self), NULL);
  return G_LIST_MODEL (self->pages);
}

double
dyno_run_get_consumed_capacity (DynoRun *self)
{
  g_return_val_if_fail (DYNO_IS_RUN (self), -1);
  return self->consumed_capacity;
}

gint64
dyno_run_get_scanned_count (DynoRun *self)
{
  g_return_val_if_fail (DYNO_IS_RUN (self), 0);
  return self->scanned_count;
}

guint
dyno_run_get_n_items (DynoRun *self)
{
  g_return_val_if_fail (DYNO_IS_RUN (self), 0);
  return n_delivered (self);
}

void
dyno_run_set_keep_items (DynoRun  *self,
                         gboolean  keep_items)
{
  g_return_if_fail (DYNO_IS_RUN (self));
  g_return_if_fail (!self->started);

  self->keep_items = keep_items;
}

gboolean
dyno_run_get_keep_items (DynoRun *self)
{
  g_return_val_if_fail (DYNO_IS_RUN (self), TRUE);
  return self->keep_items;
}

DynoItem *
dyno_run_get_item (DynoRun *self,
                   guint    position)
{
  g_return_val_if_fail (DYNO_IS_RUN (self), NULL);
  g_return_val_if_fail (position < self->items->len, NULL);

  return g_ptr_array_index (self->items, position);
}

DynoItem * const *
dyno_run_peek_items (DynoRun *self,
                     guint   *n_items)
{
  g_return_val_if_fail (DYNO_IS_RUN (self), NULL);
  g_return_val_if_fail (n_items != NULL, NULL);

  *n_items = self->items->len;
  return (DynoItem * const *) self->items->pdata;
}

void
dyno_run_hold_items (DynoRun *self)
{
  g_return_if_fail (DYNO_IS_RUN (self));
  self->hold_count++;
}

void
dyno_run_release_items (DynoRun *self)
{
  g_return_if_fail (DYNO_IS_RUN (self));
  g_return_if_fail (self->hold_count > 0);

  if (--self->hold_count == 0)
    g_ptr_array_set_size (self->held, 0);
}

void
dyno_run_set_key_names (DynoRun            *self,
                        const char * const *names)
{
  g_return_if_fail (DYNO_IS_RUN (self));

  g_clear_pointer (&self->key_names, g_strfreev);
  self->key_names = g_strdupv ((char **) names);
}

/* The key attribute names a LastEvaluatedKey of this run has: those of the next key, else of
 * the first page's key that had one, else the ones set. */
static GStrv
dup_key_names (DynoRun *self)
{
  g_autoptr(GStrvBuilder) builder = NULL;
  DynoItem *key = self->segments[0].next_key;

  if (key == NULL && self->lek_names != NULL)
    return g_strdupv (self->lek_names);
  if (key == NULL)
    return self->key_names != NULL ? g_strdupv (self->key_names) : NULL;

  builder = g_strv_builder_new ();
  for (guint i = 0; i < dyno_value_get_n_children (dyno_item_get_map (key)); i++)
    g_strv_builder_add (builder, dyno_value_get_member_name (dyno_item_get_map (key), i, NULL));
  return g_strv_builder_end (builder);
}

DynoItem *
dyno_run_get_resume_key (DynoRun *self)
{
  g_autoptr(DynoValueBuilder) builder = NULL;
  g_auto(GStrv) names = NULL;
  DynoItem *last;

  g_return_val_if_fail (DYNO_IS_RUN (self), NULL);

  if (self->n_segments != 1 || self->statement != NULL)
    return NULL;
  if (g_queue_is_empty (&self->leftovers) || self->items->len == 0)
    return self->segments[0].next_key;

  /* max-items stopped inside a page: continue after the last item in the model, whose key
   * has the attributes a LastEvaluatedKey of this request has. */
  names = dup_key_names (self);
  if (names == NULL || names[0] == NULL)
    return NULL;
  last = g_ptr_array_index (self->items, self->items->len - 1);
  builder = dyno_value_builder_new ();
  dyno_value_builder_begin (builder, DYNO_VALUE_M);
  for (guint i = 0; names[i] != NULL; i++)
    {
      const DynoValue *value = dyno_item_lookup (last, names[i]);

      if (value == NULL)
        {
          /* A projection left a key attribute out. */
          dyno_value_builder_reset (builder);
          return NULL;
        }
      dyno_value_builder_key (builder, names[i], -1);
      dyno_value_builder_add_value (builder, value);
    }
  if (!dyno_value_builder_end (builder, NULL))
    return NULL;
  g_clear_pointer (&self->resume_key, dyno_item_unref);
  self->resume_key = dyno_item_new_take (dyno_value_builder_finish (builder));
  return self->resume_key;
}

/* ---- writes made while the run is on screen ------------------------------------------------ */

static gboolean
item_has_key (DynoItem *item,
              DynoItem *key)
{
  const DynoValue *map = dyno_item_get_map (key);
  guint n = dyno_value_get_n_children (map);

  if (n == 0)
    return FALSE;
  for (guint i = 0; i < n; i++)
    {
      const DynoValue *value = dyno_item_lookup (item, dyno_value_get_member_name (map, i, NULL));

      if (value == NULL || !dyno_value_equal (value, dyno_value_get_child (map, i)))
        return FALSE;
    }
  return TRUE;
}

int
dyno_run_find_item (DynoRun  *self,
                    DynoItem *key)
{
  g_return_val_if_fail (DYNO_IS_RUN (self), -1);
  g_return_val_if_fail (key != NULL, -1);

  for (guint i = 0; i < self->items->len && i <= G_MAXINT; i++)
    if (item_has_key (g_ptr_array_index (self->items, i), key))
      return (int) i;
  return -1;
}

gboolean
dyno_run_replace_item (DynoRun  *self,
                       DynoItem *key,
                       DynoItem *item)
{
  int position;

  g_return_val_if_fail (DYNO_IS_RUN (self), FALSE);
  g_return_val_if_fail (item != NULL, FALSE);

  position = dyno_run_find_item (self, key);
  if (position < 0)
    return FALSE;
  let_go (self, g_ptr_array_index (self->items, position));
  g_ptr_array_index (self->items, position) = dyno_item_ref (item);
  g_list_model_items_changed (G_LIST_MODEL (self), (guint) position, 1, 1);
  return TRUE;
}

void
dyno_run_set_item (DynoRun  *self,
                   guint     position,
                   DynoItem *item)
{
  g_return_if_fail (DYNO_IS_RUN (self));
  g_return_if_fail (position < self->items->len);
  g_return_if_fail (item != NULL);

  dyno_item_ref (item);
  let_go (self, g_ptr_array_index (self->items, position));
  g_ptr_array_index (self->items, position) = item;
  g_list_model_items_changed (G_LIST_MODEL (self), position, 1, 1);
}

/* The pages' places in the model move with an item added (@delta 1) or taken out (-1) at
 * @position: a page's range stays the items it holds (an item added inside it widens it). */
static void
shift_pages (DynoRun *self,
             guint    position,
             int      delta)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->pages));

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(DynoRunPage) page = g_list_model_get_item (G_LIST_MODEL (self->pages), i);

      if (page->operation != NULL)
        continue;
      if (delta < 0)
        {
          if (position < page->position)
            page->position--;
          else if (position < page->position + page->n_items)
            page->n_items--;
        }
      else
        {
          if (position <= page->position)
            page->position++;
          else if (position < page->position + page->n_items)
            page->n_items++;
        }
    }
}

void
dyno_run_insert_item (DynoRun  *self,
                      guint     position,
                      DynoItem *item)
{
  g_return_if_fail (DYNO_IS_RUN (self));
  g_return_if_fail (item != NULL);

  position = MIN (position, self->items->len);
  g_ptr_array_insert (self->items, (int) position, dyno_item_ref (item));
  shift_pages (self, position, +1);
  g_list_model_items_changed (G_LIST_MODEL (self), position, 0, 1);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_ITEMS]);
}

guint
dyno_run_remove_items (DynoRun   *self,
                       GPtrArray *keys)
{
  guint n_removed = 0;

  g_return_val_if_fail (DYNO_IS_RUN (self), 0);
  g_return_val_if_fail (keys != NULL, 0);

  for (guint k = 0; k < keys->len; k++)
    {
      int position = dyno_run_find_item (self, g_ptr_array_index (keys, k));

      if (position < 0)
        continue;
      let_go (self, g_ptr_array_steal_index (self->items, (guint) position));
      shift_pages (self, (guint) position, -1);
      g_list_model_items_changed (G_LIST_MODEL (self), (guint) position, 1, 0);
      n_removed++;
    }
  if (n_removed > 0)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_ITEMS]);
  return n_removed;
}

void
dyno_run_record_write (DynoRun    *self,
                       const char *operation,
                       guint       n_items,
                       double      consumed_capacity,
                       gint64      elapsed_usec)
{
  g_autoptr(DynoRunPage) record = NULL;

  g_return_if_fail (DYNO_IS_RUN (self));
  g_return_if_fail (operation != NULL);

  record = g_object_new (DYNO_TYPE_RUN_PAGE, NULL);
  record->operation = g_strdup (operation);
  record->index = g_list_model_get_n_items (G_LIST_MODEL (self->pages));
  record->count = n_items;
  record->consumed_capacity = consumed_capacity;
  record->elapsed_usec = elapsed_usec;
  record->position = self->items->len;
  g_list_store_append (self->pages, record);
  if (consumed_capacity >= 0)
    self->write_capacity = MAX (self->write_capacity, 0) + consumed_capacity;
  /* the ledger's length changed, its page count did not: the status line reads both */
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_PAGES]);
}

double
dyno_run_get_write_capacity (DynoRun *self)
{
  g_return_val_if_fail (DYNO_IS_RUN (self), -1);
  return self->write_capacity;
}
