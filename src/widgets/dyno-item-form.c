/* dyno-item-form.c: an item as typed rows (name, type, value), nested maps/lists and sets
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "dyno-item-form.h"

#include <glib/gi18n.h>
#include <string.h>

#include "dyno-error.h"
#include "dyno-item-form-row-private.h"
#include "dyno-widget-util.h"

typedef DynoItemFormRow Row;

/* Puts @text (@len bytes) into @entry; a NUL is shown as ␀ and the bytes are held. */
static void
set_entry_exact (GtkWidget   *entry,
                 const char  *text,
                 gsize        len,
                 GBytes     **held,
                 char       **held_shown)
{
  gboolean had_nul;
  g_autofree char *shown = dyno_string_dup_visible (text, len, &had_nul);

  g_clear_pointer (held, g_bytes_unref);
  g_clear_pointer (held_shown, g_free);
  if (had_nul)
    {
      *held = g_bytes_new (text, len);
      *held_shown = g_strdup (shown);
      gtk_widget_set_tooltip_text (entry, _("U+0000 characters are shown as \u2400 and kept "
                                            "as they are while the text is unchanged"));
    }
  gtk_editable_set_text (GTK_EDITABLE (entry), shown);
}

/* The entry's text, or the held bytes when the entry still shows them. */
static const char *
entry_exact_text (GtkWidget   *entry,
                  GBytes      *held,
                  const char  *held_shown,
                  gssize      *len)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (entry));

  if (held != NULL && g_strcmp0 (text, held_shown) == 0)
    {
      gsize size;
      const char *data = g_bytes_get_data (held, &size);

      *len = size;
      return data;
    }
  *len = -1;
  return text;
}

struct _DynoItemForm
{
  GtkWidget      parent_instance;

  DynoTableInfo *schema;
  GtkWidget     *box;
  GtkWidget     *rows_box;
  GtkWidget     *add_button;
  guint          loading;
};

G_DEFINE_FINAL_TYPE (DynoItemForm, dyno_item_form, GTK_TYPE_WIDGET)

enum {
  SIGNAL_CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static const DynoValueType all_types[DYNO_VALUE_N_TYPES] = {
  DYNO_VALUE_S, DYNO_VALUE_N, DYNO_VALUE_B, DYNO_VALUE_BOOL, DYNO_VALUE_NULL,
  DYNO_VALUE_M, DYNO_VALUE_L, DYNO_VALUE_SS, DYNO_VALUE_NS, DYNO_VALUE_BS,
};

static Row *add_row (DynoItemForm *self, GtkWidget *parent_box, RowKind kind,
                     DynoValueType type);
static void fill_row (Row *row, const DynoValue *value);

static void
emit_changed (DynoItemForm *self)
{
  if (self->loading == 0)
    g_signal_emit (self, signals[SIGNAL_CHANGED], 0);
}

/* The row @widget is, or NULL for another child of a rows box. */
static Row *
row_of (GtkWidget *widget)
{
  return DYNO_IS_ITEM_FORM_ROW (widget) ? DYNO_ITEM_FORM_ROW (widget) : NULL;
}

static DynoValueType
set_member_type (DynoValueType set_type)
{
  switch (set_type)
    {
    case DYNO_VALUE_NS:
      return DYNO_VALUE_N;
    case DYNO_VALUE_BS:
      return DYNO_VALUE_B;
    case DYNO_VALUE_SS:
    case DYNO_VALUE_S:
    case DYNO_VALUE_N:
    case DYNO_VALUE_B:
    case DYNO_VALUE_BOOL:
    case DYNO_VALUE_NULL:
    case DYNO_VALUE_M:
    case DYNO_VALUE_L:
    default:
      return DYNO_VALUE_S;
    }
}

/* Index labels of an L's elements and a set's members follow their order. */
static void
renumber (GtkWidget *children_box)
{
  guint i = 0;

  for (GtkWidget *child = gtk_widget_get_first_child (children_box);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      Row *row = row_of (child);

      if (row != NULL && row->index_label != NULL)
        {
          g_autofree char *text = g_strdup_printf ("[%u]", i);

          gtk_label_set_label (GTK_LABEL (row->index_label), text);
        }
      i++;
    }
}

static void
entry_changed_cb (GtkEditable *editable,
                  Row         *row)
{
  emit_changed (row->form);
}

static void
remove_clicked_cb (GtkButton *button,
                   Row       *row)
{
  DynoItemForm *self = row->form;
  GtkWidget *parent = gtk_widget_get_parent (row->widget);

  gtk_box_remove (GTK_BOX (parent), row->widget);
  renumber (parent);
  emit_changed (self);
}

static void
add_child_clicked_cb (GtkButton *button,
                      Row       *row)
{
  Row *child;

  if (row->type == DYNO_VALUE_M)
    child = add_row (row->form, row->children_box, ROW_MEMBER, DYNO_VALUE_S);
  else if (row->type == DYNO_VALUE_L)
    child = add_row (row->form, row->children_box, ROW_ELEMENT, DYNO_VALUE_S);
  else
    child = add_row (row->form, row->children_box, ROW_SET_MEMBER, set_member_type (row->type));
  renumber (row->children_box);
  gtk_widget_grab_focus (child->name_entry ? child->name_entry : child->value_entry);
  emit_changed (row->form);
}

/* Rebuilds the value part of @row for @type.  Text typed into a scalar is kept when the
 * type changes to another scalar (S -> N, say), so a wrong first pick costs nothing. */
static void
row_set_type (Row           *row,
              DynoValueType  type)
{
  g_autofree char *kept = NULL;
  GtkWidget *child;

  if (row->value_entry != NULL)
    kept = g_strdup (gtk_editable_get_text (GTK_EDITABLE (row->value_entry)));

  while ((child = gtk_widget_get_first_child (row->value_slot)) != NULL)
    gtk_box_remove (GTK_BOX (row->value_slot), child);
  if (row->expander != NULL)
    gtk_box_remove (GTK_BOX (row->widget), row->expander);
  row->value_entry = NULL;
  row->bool_dropdown = NULL;
  row->expander = NULL;
  row->children_box = NULL;
  row->type = type;

  switch (type)
    {
    case DYNO_VALUE_S:
    case DYNO_VALUE_N:
    case DYNO_VALUE_B:
      row->value_entry = gtk_entry_new ();
      gtk_widget_set_hexpand (row->value_entry, TRUE);
      dyno_widget_set_accessible_label (row->value_entry, _("Attribute value"));
      if (type == DYNO_VALUE_B)
        gtk_entry_set_placeholder_text (GTK_ENTRY (row->value_entry), _("Base64"));
      else if (type == DYNO_VALUE_N)
        gtk_entry_set_placeholder_text (GTK_ENTRY (row->value_entry), _("Number"));
      if (kept != NULL)
        gtk_editable_set_text (GTK_EDITABLE (row->value_entry), kept);
      g_signal_connect (row->value_entry, "changed", G_CALLBACK (entry_changed_cb), row);
      gtk_box_append (GTK_BOX (row->value_slot), row->value_entry);
      break;

    case DYNO_VALUE_BOOL:
      {
        const char *labels[] = { "true", "false", NULL };

        row->bool_dropdown = gtk_drop_down_new_from_strings (labels);
        dyno_widget_expose_activate (row->bool_dropdown);
        dyno_widget_set_accessible_label (row->bool_dropdown, _("Attribute value"));
        g_signal_connect_swapped (row->bool_dropdown, "notify::selected",
                                  G_CALLBACK (emit_changed), row->form);
        gtk_box_append (GTK_BOX (row->value_slot), row->bool_dropdown);
      }
      break;

    case DYNO_VALUE_NULL:
      {
        GtkWidget *label = gtk_label_new ("null");

        gtk_widget_add_css_class (label, "dim-label");
        gtk_widget_set_halign (label, GTK_ALIGN_START);
        gtk_box_append (GTK_BOX (row->value_slot), label);
      }
      break;

    case DYNO_VALUE_M:
    case DYNO_VALUE_L:
    case DYNO_VALUE_SS:
    case DYNO_VALUE_NS:
    case DYNO_VALUE_BS:
    default:
      {
        GtkWidget *inner = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
        GtkWidget *add = gtk_button_new_with_mnemonic (type == DYNO_VALUE_L ? _("Add _element")
                                                                          : _("Add _member"));
        const char *title = type == DYNO_VALUE_M ? _("Members")
                            : type == DYNO_VALUE_L ? _("Elements") : _("Set members");

        row->expander = gtk_expander_new (title);
        gtk_expander_set_expanded (GTK_EXPANDER (row->expander), TRUE);
        gtk_widget_set_margin_start (row->expander, 24);
        row->children_box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
        gtk_box_append (GTK_BOX (inner), row->children_box);
        gtk_widget_set_halign (add, GTK_ALIGN_START);
        gtk_widget_add_css_class (add, "flat");
        dyno_widget_set_accessible_label (add, type == DYNO_VALUE_L ? _("Add element") : _("Add member"));
        g_signal_connect (add, "clicked", G_CALLBACK (add_child_clicked_cb), row);
        gtk_box_append (GTK_BOX (inner), add);
        gtk_expander_set_child (GTK_EXPANDER (row->expander), inner);
        gtk_box_append (GTK_BOX (row->widget), row->expander);
      }
      break;
    }
}

static void
type_selected_cb (GtkDropDown *dropdown,
                  GParamSpec  *pspec,
                  Row         *row)
{
  guint selected = gtk_drop_down_get_selected (dropdown);

  if (selected >= DYNO_VALUE_N_TYPES || all_types[selected] == row->type)
    return;
  row_set_type (row, all_types[selected]);
  emit_changed (row->form);
}

static void
select_type (Row           *row,
             DynoValueType  type)
{
  if (row->type_dropdown != NULL)
    for (guint i = 0; i < DYNO_VALUE_N_TYPES; i++)
      if (all_types[i] == type)
        gtk_drop_down_set_selected (GTK_DROP_DOWN (row->type_dropdown), i);
  if (row->type != type || (row->value_entry == NULL && row->bool_dropdown == NULL &&
                            row->expander == NULL && type != DYNO_VALUE_NULL))
    row_set_type (row, type);
}

static Row *
add_row (DynoItemForm  *self,
         GtkWidget     *parent_box,
         RowKind        kind,
         DynoValueType  type)
{
  Row *row = dyno_item_form_row_new ();

  row->form = self;
  row->kind = kind;

  /* the row keeps the parts of its kind (dyno-item-form-row.ui has them all) */
  if (kind == ROW_ATTRIBUTE || kind == ROW_MEMBER)
    {
      gtk_box_remove (GTK_BOX (row->line), row->index_label);
      row->index_label = NULL;
      dyno_widget_set_accessible_label (row->name_entry, kind == ROW_ATTRIBUTE ? _("Attribute name")
                                                                   : _("Member name"));
      g_signal_connect (row->name_entry, "changed", G_CALLBACK (entry_changed_cb), row);
    }
  else
    {
      gtk_box_remove (GTK_BOX (row->line), row->name_entry);
      row->name_entry = NULL;
    }

  if (kind != ROW_SET_MEMBER)
    {
      const char *names[DYNO_VALUE_N_TYPES + 1];
      g_autoptr(GtkStringList) model = NULL;

      for (guint i = 0; i < DYNO_VALUE_N_TYPES; i++)
        names[i] = dyno_value_type_to_string (all_types[i]);
      names[DYNO_VALUE_N_TYPES] = NULL;
      model = gtk_string_list_new (names);
      gtk_drop_down_set_model (GTK_DROP_DOWN (row->type_dropdown), G_LIST_MODEL (model));
      dyno_widget_expose_activate (row->type_dropdown);
      dyno_widget_set_accessible_label (row->type_dropdown, _("Attribute type"));
    }
  else
    {
      gtk_box_remove (GTK_BOX (row->line), row->type_dropdown);
      row->type_dropdown = NULL;
    }

  dyno_widget_set_accessible_label (row->remove_button,
                                    kind == ROW_ATTRIBUTE ? _("Remove attribute")
                                    : kind == ROW_ELEMENT ? _("Remove element")
                                    : _("Remove member"));
  g_signal_connect (row->remove_button, "clicked", G_CALLBACK (remove_clicked_cb), row);

  gtk_box_append (GTK_BOX (parent_box), row->widget);
  select_type (row, type);
  if (row->type_dropdown != NULL)
    g_signal_connect (row->type_dropdown, "notify::selected", G_CALLBACK (type_selected_cb),
                      row);
  return row;
}

static char *
scalar_text (const DynoValue *value)
{
  switch (dyno_value_get_kind (value))
    {
    case DYNO_VALUE_B:
      {
        gsize len;
        const guint8 *data = dyno_value_get_binary (value, &len);

        return g_base64_encode (data, len);
      }
    case DYNO_VALUE_S:
    case DYNO_VALUE_N:
      return g_strdup (dyno_value_get_string (value, NULL));
    case DYNO_VALUE_BOOL:
    case DYNO_VALUE_NULL:
    case DYNO_VALUE_M:
    case DYNO_VALUE_L:
    case DYNO_VALUE_SS:
    case DYNO_VALUE_NS:
    case DYNO_VALUE_BS:
    default:
      return NULL;
    }
}

static void
fill_row (Row             *row,
          const DynoValue *value)
{
  DynoValueType type = dyno_value_get_kind (value);
  guint n = dyno_value_get_n_children (value);

  if (row->kind != ROW_SET_MEMBER)
    select_type (row, type);

  switch (type)
    {
    case DYNO_VALUE_S:
      {
        gsize len;
        const char *text = dyno_value_get_string (value, &len);

        set_entry_exact (row->value_entry, text, len, &row->held_value, &row->held_value_shown);
      }
      break;
    case DYNO_VALUE_N:
    case DYNO_VALUE_B:
      {
        g_autofree char *text = scalar_text (value);

        gtk_editable_set_text (GTK_EDITABLE (row->value_entry), text);
      }
      break;
    case DYNO_VALUE_BOOL:
      gtk_drop_down_set_selected (GTK_DROP_DOWN (row->bool_dropdown),
                                  dyno_value_get_bool (value) ? 0 : 1);
      break;
    case DYNO_VALUE_NULL:
      break;
    case DYNO_VALUE_M:
      for (guint i = 0; i < n; i++)
        {
          const DynoValue *child = dyno_value_get_child (value, i);
          Row *member = add_row (row->form, row->children_box, ROW_MEMBER,
                                 dyno_value_get_kind (child));

          gsize len;
          const char *name = dyno_value_get_member_name (value, i, &len);

          set_entry_exact (member->name_entry, name, len, &member->held_name,
                           &member->held_name_shown);
          fill_row (member, child);
        }
      break;
    case DYNO_VALUE_L:
      for (guint i = 0; i < n; i++)
        {
          const DynoValue *child = dyno_value_get_child (value, i);

          fill_row (add_row (row->form, row->children_box, ROW_ELEMENT,
                             dyno_value_get_kind (child)), child);
        }
      renumber (row->children_box);
      break;
    case DYNO_VALUE_SS:
    case DYNO_VALUE_NS:
    case DYNO_VALUE_BS:
    default:
      for (guint i = 0; i < n; i++)
        {
          const DynoValue *child = dyno_value_get_child (value, i);

          fill_row (add_row (row->form, row->children_box, ROW_SET_MEMBER,
                             set_member_type (type)), child);
        }
      renumber (row->children_box);
      break;
    }
}

/* ---- reading ------------------------------------------------------------------------------ */

/* Standard base64 with padding, as DynamoDB JSON carries binary (g_base64_decode() would
 * silently skip anything else). */
static gboolean
valid_base64 (const char *text)
{
  gsize len = strlen (text);
  gsize pad = 0;

  if (len % 4 != 0)
    return FALSE;
  for (gsize i = 0; i < len; i++)
    {
      char c = text[i];

      if (c == '=')
        {
          if (i < len - 2)
            return FALSE;
          pad++;
        }
      else if (pad > 0 || !(g_ascii_isalnum (c) || c == '+' || c == '/'))
        return FALSE;
    }
  return TRUE;
}

static gboolean
fail_at (GError     **error,
         GString     *path,
         GError      *cause)
{
  g_set_error (error, DYNO_ERROR, cause->code, _("Attribute “%s”: %s"), path->str,
               cause->message);
  g_error_free (cause);
  return FALSE;
}

static gboolean build_children (GtkWidget *children_box, DynoValueBuilder *builder,
                                GString *path, GError **error);

static gboolean
build_row (Row              *row,
           DynoValueBuilder *builder,
           GString          *path,
           GError          **error)
{
  GError *local_error = NULL;
  const char *text = row->value_entry ? gtk_editable_get_text (GTK_EDITABLE (row->value_entry))
                                      : NULL;

  switch (row->type)
    {
    case DYNO_VALUE_S:
      {
        gssize len;
        const char *exact = entry_exact_text (row->value_entry, row->held_value,
                                              row->held_value_shown, &len);

        dyno_value_builder_add_string (builder, exact, len);
      }
      return TRUE;

    case DYNO_VALUE_N:
      if (!dyno_value_builder_add_number (builder, text, -1, &local_error))
        return fail_at (error, path, local_error);
      return TRUE;

    case DYNO_VALUE_B:
      {
        g_autofree guint8 *data = NULL;
        gsize len = 0;

        if (!valid_base64 (text))
          return fail_at (error, path,
                          g_error_new (DYNO_ERROR, DYNO_ERROR_INVALID_VALUE,
                                       _("“%s” is not base64 (binary is written as base64, "
                                         "e.g. “AQID”)."), text));
        data = g_base64_decode (text, &len);
        dyno_value_builder_add_binary (builder, data, len);
        return TRUE;
      }

    case DYNO_VALUE_BOOL:
      dyno_value_builder_add_bool (builder,
                                   gtk_drop_down_get_selected (GTK_DROP_DOWN (row->bool_dropdown))
                                   == 0);
      return TRUE;

    case DYNO_VALUE_NULL:
      dyno_value_builder_add_null (builder);
      return TRUE;

    case DYNO_VALUE_M:
    case DYNO_VALUE_L:
    case DYNO_VALUE_SS:
    case DYNO_VALUE_NS:
    case DYNO_VALUE_BS:
    default:
      dyno_value_builder_begin (builder, row->type);
      if (!build_children (row->children_box, builder, path, error))
        {
          dyno_value_builder_reset (builder);
          return FALSE;
        }
      if (!dyno_value_builder_end (builder, &local_error))
        return fail_at (error, path, local_error);
      return TRUE;
    }
}

static gboolean
build_children (GtkWidget         *children_box,
                DynoValueBuilder  *builder,
                GString           *path,
                GError           **error)
{
  g_autoptr(GHashTable) names = g_hash_table_new (g_str_hash, g_str_equal);
  gsize path_len = path->len;
  guint index = 0;

  for (GtkWidget *child = gtk_widget_get_first_child (children_box);
       child != NULL;
       child = gtk_widget_get_next_sibling (child), index++)
    {
      Row *row = row_of (child);

      if (row == NULL)
        continue;

      if (row->name_entry != NULL)
        {
          const char *name = gtk_editable_get_text (GTK_EDITABLE (row->name_entry));

          if (row->kind == ROW_MEMBER)
            g_string_append_c (path, '.');
          g_string_append (path, name);
          if (name[0] == '\0')
            {
              g_string_truncate (path, path_len);
              g_set_error (error, DYNO_ERROR, DYNO_ERROR_VALIDATION,
                           row->kind == ROW_ATTRIBUTE
                           ? _("Attribute %u has no name.")
                           : _("Member %u of “%s” has no name."), index + 1, path->str);
              return FALSE;
            }
          if (!g_hash_table_add (names, (gpointer) name))
            {
              g_set_error (error, DYNO_ERROR, DYNO_ERROR_VALIDATION,
                           _("Attribute “%s” appears twice; names must be unique."), path->str);
              return FALSE;
            }
          {
            gssize len;
            const char *exact = entry_exact_text (row->name_entry, row->held_name,
                                                  row->held_name_shown, &len);

            dyno_value_builder_key (builder, exact, len);
          }
        }
      else
        g_string_append_printf (path, "[%u]", index);

      if (row->kind == ROW_SET_MEMBER)
        {
          const char *text = gtk_editable_get_text (GTK_EDITABLE (row->value_entry));
          GError *local_error = NULL;

          if (row->type == DYNO_VALUE_S)
            {
              gssize len;
              const char *exact = entry_exact_text (row->value_entry, row->held_value,
                                                    row->held_value_shown, &len);

              dyno_value_builder_add_string (builder, exact, len);
            }
          else if (row->type == DYNO_VALUE_N)
            {
              if (!dyno_value_builder_add_number (builder, text, -1, &local_error))
                return fail_at (error, path, local_error);
            }
          else if (!build_row (row, builder, path, error))
            return FALSE;
        }
      else if (!build_row (row, builder, path, error))
        return FALSE;

      g_string_truncate (path, path_len);
    }

  return TRUE;
}

/* ---- public ------------------------------------------------------------------------------- */

DynoItem *
dyno_item_form_dup_item (DynoItemForm  *self,
                         GError       **error)
{
  g_autoptr(DynoValueBuilder) builder = dyno_value_builder_new ();
  g_autoptr(GString) path = g_string_new (NULL);
  GError *local_error = NULL;

  g_return_val_if_fail (DYNO_IS_ITEM_FORM (self), NULL);

  dyno_value_builder_begin (builder, DYNO_VALUE_M);
  if (!build_children (self->rows_box, builder, path, error))
    return NULL;
  if (!dyno_value_builder_end (builder, &local_error))
    {
      g_propagate_error (error, local_error);
      return NULL;
    }
  return dyno_item_new_take (dyno_value_builder_finish (builder));
}

static void
add_key_row (DynoItemForm      *self,
             const DynoKeyAttr *key,
             DynoItem          *item)
{
  const DynoValue *value = item ? dyno_item_lookup (item, key->name) : NULL;
  Row *row;

  row = add_row (self, self->rows_box, ROW_ATTRIBUTE, value ? dyno_value_get_kind (value)
                                                            : key->type);
  row->is_key = TRUE;
  gtk_editable_set_text (GTK_EDITABLE (row->name_entry), key->name);
  gtk_editable_set_editable (GTK_EDITABLE (row->name_entry), FALSE);
  if (value != NULL)
    fill_row (row, value);
  /* The schema decides the key's type; a wrong one in the loaded item stays changeable. */
  if (value == NULL || dyno_value_get_kind (value) == key->type)
    gtk_widget_set_sensitive (row->type_dropdown, FALSE);
  gtk_widget_set_sensitive (row->remove_button, FALSE);
  gtk_widget_set_tooltip_text (row->line, _("Key attribute: its type is fixed by the table"));
  gtk_widget_add_css_class (row->widget, "key-attribute");
}

void
dyno_item_form_set_item (DynoItemForm *self,
                         DynoItem     *item)
{
  const DynoKeyAttr *pk = NULL;
  const DynoKeyAttr *sk = NULL;
  GtkWidget *child;

  g_return_if_fail (DYNO_IS_ITEM_FORM (self));

  self->loading++;
  while ((child = gtk_widget_get_first_child (self->rows_box)) != NULL)
    gtk_box_remove (GTK_BOX (self->rows_box), child);

  if (self->schema != NULL)
    {
      pk = dyno_table_info_get_partition_key (self->schema);
      sk = dyno_table_info_get_sort_key (self->schema);
      add_key_row (self, pk, item);
      if (sk != NULL && sk->name != NULL)
        add_key_row (self, sk, item);
    }

  if (item != NULL)
    {
      const DynoValue *map = dyno_item_get_map (item);

      for (guint i = 0; i < dyno_value_get_n_children (map); i++)
        {
          gsize len;
          const char *name = dyno_value_get_member_name (map, i, &len);
          const DynoValue *value = dyno_value_get_child (map, i);
          Row *row;

          if ((pk != NULL && g_str_equal (name, pk->name)) ||
              (sk != NULL && sk->name != NULL && g_str_equal (name, sk->name)))
            continue;
          row = add_row (self, self->rows_box, ROW_ATTRIBUTE, dyno_value_get_kind (value));
          set_entry_exact (row->name_entry, name, len, &row->held_name, &row->held_name_shown);
          fill_row (row, value);
        }
    }
  self->loading--;
}

void
dyno_item_form_set_schema (DynoItemForm  *self,
                           DynoTableInfo *schema)
{
  g_return_if_fail (DYNO_IS_ITEM_FORM (self));

  if (schema != NULL)
    dyno_table_info_ref (schema);
  g_clear_pointer (&self->schema, dyno_table_info_unref);
  self->schema = schema;
}

GtkWidget *
dyno_item_form_add_attribute (DynoItemForm *self)
{
  Row *row;

  g_return_val_if_fail (DYNO_IS_ITEM_FORM (self), NULL);

  row = add_row (self, self->rows_box, ROW_ATTRIBUTE, DYNO_VALUE_S);
  gtk_widget_grab_focus (row->name_entry);
  emit_changed (self);
  return row->widget;
}

GtkWidget *
dyno_item_form_find_attribute (DynoItemForm *self,
                               const char   *name)
{
  g_return_val_if_fail (DYNO_IS_ITEM_FORM (self), NULL);

  for (GtkWidget *child = gtk_widget_get_first_child (self->rows_box);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      Row *row = row_of (child);

      if (row != NULL && row->name_entry != NULL &&
          g_str_equal (gtk_editable_get_text (GTK_EDITABLE (row->name_entry)), name))
        return child;
    }
  return NULL;
}

static void
add_attribute_clicked_cb (GtkButton    *button,
                          DynoItemForm *self)
{
  dyno_item_form_add_attribute (self);
}

static void
dyno_item_form_dispose (GObject *object)
{
  DynoItemForm *self = DYNO_ITEM_FORM (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), DYNO_TYPE_ITEM_FORM);
  g_clear_pointer (&self->schema, dyno_table_info_unref);
  G_OBJECT_CLASS (dyno_item_form_parent_class)->dispose (object);
}

static void
dyno_item_form_class_init (DynoItemFormClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = dyno_item_form_dispose;

  signals[SIGNAL_CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass),
                                          G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                          G_TYPE_NONE, 0);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "dyno-item-form");
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/com/dynotable/DynoTable/dyno-item-form.ui");
  gtk_widget_class_bind_template_child (widget_class, DynoItemForm, box);
  gtk_widget_class_bind_template_child (widget_class, DynoItemForm, rows_box);
  gtk_widget_class_bind_template_child (widget_class, DynoItemForm, add_button);
  gtk_widget_class_bind_template_callback (widget_class, add_attribute_clicked_cb);
}

static void
dyno_item_form_init (DynoItemForm *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

GtkWidget *
dyno_item_form_new (void)
{
  return g_object_new (DYNO_TYPE_ITEM_FORM, NULL);
}
