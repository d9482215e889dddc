/* dyno-partition-model.c: items grouped by partition, in the order DynamoDB returned them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "dyno-json.h"
#include "dyno-partition-model.h"
#include "dyno-partition-private.h"

static char *
key_to_text (const DynoValue *value)
{
  char *text;

  if (value == NULL)
    return g_strdup ("");

  text = dyno_value_to_key_text (value);
  return text != NULL ? text : dyno_value_to_ddb_json (value);
}

struct _DynoPartitionModel
{
  GObject     parent_instance;

  GListModel *items;
  char       *partition_key_name;
  GPtrArray  *partitions;   /* DynoPartition*, first-appearance order */
  GHashTable *by_key;       /* key_text -> DynoPartition* (borrowed) */
  guint       n_seen;       /* items of @items already grouped */
};

static void dyno_partition_model_list_model_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (DynoPartitionModel, dyno_partition_model, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL,
                                                      dyno_partition_model_list_model_init))

static GType
dyno_partition_model_get_item_type (GListModel *model)
{
  return DYNO_TYPE_PARTITION;
}

static guint
dyno_partition_model_get_n_items (GListModel *model)
{
  return DYNO_PARTITION_MODEL (model)->partitions->len;
}

static gpointer
dyno_partition_model_get_item (GListModel *model,
                               guint       position)
{
  DynoPartitionModel *self = DYNO_PARTITION_MODEL (model);

  if (position >= self->partitions->len)
    return NULL;

  return g_object_ref (g_ptr_array_index (self->partitions, position));
}

static void
dyno_partition_model_list_model_init (GListModelInterface *iface)
{
  iface->get_item_type = dyno_partition_model_get_item_type;
  iface->get_n_items = dyno_partition_model_get_n_items;
  iface->get_item = dyno_partition_model_get_item;
}

static void
group_from (DynoPartitionModel *self,
            guint               start)
{
  guint n = g_list_model_get_n_items (self->items);
  guint first_new = self->partitions->len;
  g_autoptr(GHashTable) grown = g_hash_table_new_full (NULL, NULL, NULL,
                                                       (GDestroyNotify) g_ptr_array_unref);

  for (guint i = start; i < n; i++)
    {
      g_autoptr(DynoItemObject) object = g_list_model_get_item (self->items, i);
      DynoItem *item = dyno_item_object_get_item (object);
      const DynoValue *key = dyno_item_lookup (item, self->partition_key_name);
      g_autofree char *text = key_to_text (key);
      DynoPartition *partition = g_hash_table_lookup (self->by_key, text);

      if (partition == NULL)
        {
          partition = g_object_new (DYNO_TYPE_PARTITION, NULL);
          partition->key = key ? dyno_value_copy (key) : NULL;
          partition->key_text = g_steal_pointer (&text);
          g_ptr_array_add (self->partitions, partition);
          g_hash_table_insert (self->by_key, partition->key_text, partition);
        }

      {
        GPtrArray *added = g_hash_table_lookup (grown, partition);

        if (added == NULL)
          {
            added = g_ptr_array_new_with_free_func (g_object_unref);
            g_hash_table_insert (grown, partition, added);
          }
        g_ptr_array_add (added, g_object_ref (object));
      }
      partition->size += dyno_item_get_size (item);
    }

  /* One items-changed per partition and page, not one per item: each goes through the tree
   * model, the selection and the list view. */
  {
    GHashTableIter iter;
    gpointer key, value;

    g_hash_table_iter_init (&iter, grown);
    while (g_hash_table_iter_next (&iter, &key, &value))
      {
        DynoPartition *partition = key;
        GPtrArray *added = value;

        g_list_store_splice (partition->items,
                             g_list_model_get_n_items (G_LIST_MODEL (partition->items)), 0,
                             added->pdata, added->len);
      }
  }

  self->n_seen = n;

  if (self->partitions->len > first_new)
    g_list_model_items_changed (G_LIST_MODEL (self), first_new, 0,
                                self->partitions->len - first_new);
}

static void
items_changed_cb (GListModel         *items,
                  guint               position,
                  guint               removed,
                  guint               added,
                  DynoPartitionModel *self)
{
  if (removed > 0 || position < self->n_seen)
    {
      /* Not an append (a new run on the same model): group again from scratch. */
      guint old = self->partitions->len;

      g_hash_table_remove_all (self->by_key);
      g_ptr_array_set_size (self->partitions, 0);
      self->n_seen = 0;
      if (old > 0)
        g_list_model_items_changed (G_LIST_MODEL (self), 0, old, 0);
      group_from (self, 0);
      return;
    }

  group_from (self, self->n_seen);
}

static void
dyno_partition_model_dispose (GObject *object)
{
  DynoPartitionModel *self = DYNO_PARTITION_MODEL (object);

  if (self->items != NULL)
    g_signal_handlers_disconnect_by_func (self->items, items_changed_cb, self);
  g_clear_object (&self->items);

  G_OBJECT_CLASS (dyno_partition_model_parent_class)->dispose (object);
}

static void
dyno_partition_model_finalize (GObject *object)
{
  DynoPartitionModel *self = DYNO_PARTITION_MODEL (object);

  g_clear_pointer (&self->partitions, g_ptr_array_unref);
  g_clear_pointer (&self->by_key, g_hash_table_unref);
  g_free (self->partition_key_name);

  G_OBJECT_CLASS (dyno_partition_model_parent_class)->finalize (object);
}

static void
dyno_partition_model_class_init (DynoPartitionModelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = dyno_partition_model_dispose;
  object_class->finalize = dyno_partition_model_finalize;
}

static void
dyno_partition_model_init (DynoPartitionModel *self)
{
  self->partitions = g_ptr_array_new_with_free_func (g_object_unref);
  self->by_key = g_hash_table_new (g_str_hash, g_str_equal);
}

DynoPartitionModel *
dyno_partition_model_new (GListModel *items,
                          const char *partition_key_name)
{
  DynoPartitionModel *self;

  g_return_val_if_fail (G_IS_LIST_MODEL (items), NULL);
  g_return_val_if_fail (partition_key_name != NULL, NULL);

  self = g_object_new (DYNO_TYPE_PARTITION_MODEL, NULL);
  self->items = g_object_ref (items);
  self->partition_key_name = g_strdup (partition_key_name);
  g_signal_connect (items, "items-changed", G_CALLBACK (items_changed_cb), self);
  group_from (self, 0);

  return self;
}

DynoPartition *
dyno_partition_model_lookup (DynoPartitionModel *self,
                             const char         *key_text)
{
  g_return_val_if_fail (DYNO_IS_PARTITION_MODEL (self), NULL);
  return g_hash_table_lookup (self->by_key, key_text);
}
