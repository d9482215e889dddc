/* dyno-builder-form.c: the expression-builder form
 *
 * The fixed fields are the template dyno-builder-form.ui, each filter row is built from
 * dyno-filter-row.ui; this file fills in what depends on the table's schema (key names and
 * types, its indexes) and says what the fields mean.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "dyno-builder-form.h"
#include "dyno-json.h"
#include "dyno-query-draft.h"
#include "dyno-widget-util.h"

typedef enum {
  FILTER_COMPARE,
  FILTER_BETWEEN,
  FILTER_IN,
  FILTER_BEGINS_WITH,
  FILTER_CONTAINS,
  FILTER_EXISTS,
  FILTER_NOT_EXISTS,
  FILTER_TYPE,
  FILTER_SIZE,
} FilterKind;

typedef struct {
  const char    *label;
  FilterKind     kind;
  DynoCompareOp  compare;
} FilterOp;

static const FilterOp filter_ops[] = {
  { "=", FILTER_COMPARE, DYNO_COMPARE_EQ },
  { "<>", FILTER_COMPARE, DYNO_COMPARE_NE },
  { "<", FILTER_COMPARE, DYNO_COMPARE_LT },
  { "<=", FILTER_COMPARE, DYNO_COMPARE_LE },
  { ">", FILTER_COMPARE, DYNO_COMPARE_GT },
  { ">=", FILTER_COMPARE, DYNO_COMPARE_GE },
  { N_("between"), FILTER_BETWEEN, 0 },
  { N_("in"), FILTER_IN, 0 },
  { N_("begins with"), FILTER_BEGINS_WITH, 0 },
  { N_("contains"), FILTER_CONTAINS, 0 },
  { N_("exists"), FILTER_EXISTS, 0 },
  { N_("does not exist"), FILTER_NOT_EXISTS, 0 },
  { N_("is of type"), FILTER_TYPE, 0 },
  { N_("size ="), FILTER_SIZE, DYNO_COMPARE_EQ },
  { N_("size <"), FILTER_SIZE, DYNO_COMPARE_LT },
  { N_("size <="), FILTER_SIZE, DYNO_COMPARE_LE },
  { N_("size >"), FILTER_SIZE, DYNO_COMPARE_GT },
  { N_("size >="), FILTER_SIZE, DYNO_COMPARE_GE },
};

/* The value types a filter row offers; "DynamoDB JSON" covers M, L and the sets. */
enum {
  VALUE_TYPE_S,
  VALUE_TYPE_N,
  VALUE_TYPE_B,
  VALUE_TYPE_BOOL,
  VALUE_TYPE_NULL,
  VALUE_TYPE_JSON,
};

/* per DynoSortKeyOperator */
static const char *sort_op_labels[] = {
  N_("any"), "=", "<", "<=", ">", ">=", N_("between"), N_("begins with"),
};

typedef struct _FilterRow FilterRow;

struct _DynoBuilderForm
{
  GtkWidget        parent_instance;

  char            *table_name;
  DynoTableInfo   *info;
  /* What a Query or Scan says (the key fields are bound to it); it makes the request. */
  DynoQueryDraft  *draft;
  GPtrArray       *index_names;      /* char*, position 0 is NULL: the table itself */
  GPtrArray       *sort_ops;         /* DynoSortKeyOperator, per dropdown position */
  GPtrArray       *filter_rows;      /* FilterRow* */
  GtkStringList   *known_attributes;
  gboolean         valid;
  char            *reason;
  char            *hint;             /* why the request cannot be built yet (no red label) */
  DynoRequest     *request;          /* as of the last revalidation, or NULL */
  char            *text_note;        /* why the conditions stay in text mode */
  gboolean         staying_in_text;  /* the switch is being turned back on */
  guint            revalidate_source;
  gboolean         loading;          /* suppresses revalidation while fields are filled */

  GtkWidget       *scroller;         /* the template's child: bound so dispose unparents it */
  GtkWidget       *operation_dropdown;
  GtkWidget       *target_dropdown;
  GtkWidget       *target_label;
  GtkWidget       *key_group;
  GtkWidget       *pk_label;
  GtkWidget       *pk_entry;
  GtkWidget       *pk_error;
  GtkWidget       *sk_box;
  GtkWidget       *sk_label;
  GtkWidget       *sk_op_dropdown;
  GtkWidget       *sk_entry;
  GtkWidget       *sk_and_label;
  GtkWidget       *sk_entry2;
  GtkWidget       *sk_error;
  GtkWidget       *key_error;
  GtkWidget       *filter_group;
  GtkWidget       *combinator_dropdown;
  GtkWidget       *filter_rows_box;
  GtkWidget       *filter_error;
  GtkWidget       *text_mode_switch;
  GtkWidget       *text_box;
  GtkWidget       *key_text_entry;
  GtkWidget       *key_text_error;
  GtkWidget       *filter_text_entry;
  GtkWidget       *filter_text_error;
  GtkWidget       *projection_entry;
  GtkWidget       *projection_chips;
  GtkWidget       *projection_error;
  GtkWidget       *direction_box;
  GtkWidget       *ascending_button;
  GtkWidget       *descending_button;
  GtkWidget       *limit_spin;
  GtkWidget       *max_items_spin;
  GtkWidget       *consistent_switch;
  GtkWidget       *consistent_row;
  GtkWidget       *consistent_subtitle;
  gboolean         consistent_wanted;    /* the user's choice, kept while an index forbids it */
  gboolean         consistent_forced;    /* switched off because a GSI is chosen */
  gboolean         consistent_updating;  /* the switch is being set by the form, not the user */
  GtkWidget       *options_error;
  GtkWidget       *general_error;
};

struct _FilterRow
{
  DynoBuilderForm *form;
  GtkWidget       *box;
  GtkWidget       *not_button;
  GtkWidget       *path_entry;
  GtkWidget       *op_dropdown;
  GtkWidget       *value_entry;
  GtkWidget       *and_label;
  GtkWidget       *value2_entry;
  GtkWidget       *type_dropdown;
  GtkWidget       *remove_button;
  GtkWidget       *error_label;
  GtkWidget       *quote_button;     /* offers the quoted form of a dotted name */
  char            *quoted;           /* what quote_button writes */
};

G_DEFINE_FINAL_TYPE (DynoBuilderForm, dyno_builder_form, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_VALID,
  PROP_REASON,
  N_PROPS
};

enum {
  CHANGED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static void queue_revalidate (DynoBuilderForm *self);
static FilterRow *add_filter_row (DynoBuilderForm *self);
static void set_text_error (GtkWidget *entry, GtkWidget *label, const GError *error,
                            const DynoParseLocation *loc);

/* ---- helpers --------------------------------------------------------------------------- */

static void
set_error (GtkWidget  *label,
           const char *message)
{
  gtk_widget_set_tooltip_text (label, NULL);
  /* also marks the label's fields invalid, for screen readers */
  dyno_field_error_show (label, message);
}

/* Takes @hint; only the first one of a revalidation is kept. */
static void
set_hint (DynoBuilderForm *self,
          char            *hint)
{
  if (self->hint == NULL)
    self->hint = hint;
  else
    g_free (hint);
}

static void
append_error (GtkWidget  *label,
              const char *message)
{
  const char *current = gtk_label_get_label (GTK_LABEL (label));

  if (current != NULL && *current != '\0')
    {
      g_autofree char *joined = g_strconcat (current, "\n", message, NULL);
      g_autofree char *tooltip = gtk_widget_get_tooltip_text (label)
                                 ? g_strdup (gtk_widget_get_tooltip_text (label)) : NULL;

      set_error (label, joined);
      gtk_widget_set_tooltip_text (label, tooltip);
    }
  else
    {
      set_error (label, message);
    }
}


/* ---- attribute names with dots ---------------------------------------------------------- */

static gboolean
is_known_attribute (DynoBuilderForm *self,
                    const char      *name)
{
  GListModel *model = G_LIST_MODEL (self->known_attributes);

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    if (g_strcmp0 (gtk_string_list_get_string (self->known_attributes, i), name) == 0)
      return TRUE;
  return FALSE;
}

/* `order.total` reads the map order, then its key total.  When no attribute order was seen but
 * one literally named "order.total" was, the user almost certainly means that one: returns the
 * message saying so, and the quoted form in @out_quoted; NULL otherwise. */
static char *
dotted_name_problem (DynoBuilderForm *self,
                     const DynoPath  *path,
                     char           **out_quoted)
{
  g_autoptr(GString) literal = g_string_new (NULL);
  g_autoptr(DynoPath) as_one = NULL;
  g_autofree char *quoted = NULL;
  const char *first;

  if (path == NULL || dyno_path_get_length (path) < 2)
    return NULL;
  for (guint i = 0; i < path->elements->len; i++)
    {
      const DynoPathElement *element = &g_array_index (path->elements, DynoPathElement, i);

      if (element->name == NULL)
        return NULL;
      if (i > 0)
        g_string_append_c (literal, '.');
      g_string_append (literal, element->name);
    }
  first = dyno_path_get_attribute (path);
  if (is_known_attribute (self, first) || !is_known_attribute (self, literal->str))
    return NULL;
  as_one = dyno_path_new (literal->str);
  quoted = dyno_path_to_inline (as_one);
  if (out_quoted != NULL)
    *out_quoted = g_strdup (quoted);
  /* Translators: the path as typed, its first attribute, the attribute's literal name, then
   * the name quoted (in backticks). */
  return g_strdup_printf (_("%s is read as a path into a map attribute %s, which no item seen "
                            "has; the items have an attribute named “%s”. DynamoDB reads a "
                            "dot as a path: write %s for that attribute."),
                          literal->str, first, literal->str, quoted);
}

static void
collect_expr_paths (const DynoExpr *expr,
                    GPtrArray      *out)
{
  if (expr == NULL)
    return;
  if (expr->path != NULL)
    g_ptr_array_add (out, (gpointer) expr);
  if (expr->args != NULL)
    for (guint i = 0; i < expr->args->len; i++)
      collect_expr_paths (g_ptr_array_index (expr->args, i), out);
}

/* The first dotted-name problem in a condition typed as text, underlined in its entry. */
static gboolean
check_text_dotted_names (DynoBuilderForm *self,
                         GtkWidget       *entry,
                         GtkWidget       *label,
                         const DynoExpr  *expr)
{
  g_autoptr(GPtrArray) nodes = g_ptr_array_new ();

  collect_expr_paths (expr, nodes);
  for (guint i = 0; i < nodes->len; i++)
    {
      const DynoExpr *node = g_ptr_array_index (nodes, i);
      g_autofree char *message = dotted_name_problem (self, node->path, NULL);

      if (message != NULL)
        {
          g_autoptr(GError) error = g_error_new_literal (DYNO_ERROR, DYNO_ERROR_VALIDATION,
                                                         message);
          DynoParseLocation loc = { node->offset, node->length, 0 };

          set_text_error (entry, label, error, &loc);
          return FALSE;
        }
    }
  return TRUE;
}

/* Completion rows: the text inserted (the name quoted when it needs it: `order.total`) and
 * the name itself, which is what the typed prefix is matched against. */
enum { COMPLETION_INSERT, COMPLETION_NAME };

static void
fill_completion_store (GtkListStore       *store,
                       const char * const *names,
                       guint               n_names)
{
  gtk_list_store_clear (store);
  for (guint i = 0; i < n_names && names[i] != NULL; i++)
    {
      g_autoptr(DynoPath) path = dyno_path_new (names[i]);
      g_autofree char *quoted = dyno_path_to_inline (path);

      gtk_list_store_insert_with_values (store, NULL, -1, COMPLETION_INSERT, quoted,
                                         COMPLETION_NAME, names[i], -1);
    }
}

static gboolean
has_folded_prefix (const char *text,
                   const char *key)
{
  g_autofree char *normalized = NULL;
  g_autofree char *folded = NULL;

  if (text == NULL)
    return FALSE;
  normalized = g_utf8_normalize (text, -1, G_NORMALIZE_ALL);
  if (normalized == NULL)
    return FALSE;
  folded = g_utf8_casefold (normalized, -1);
  return g_str_has_prefix (folded, key);
}

/* @key comes normalized and case-folded; a name matches by itself or as quoted. */
static gboolean
completion_match (GtkEntryCompletion *completion,
                  const char         *key,
                  GtkTreeIter        *iter,
                  gpointer            user_data)
{
  GtkTreeModel *model = gtk_entry_completion_get_model (completion);
  g_autofree char *insert = NULL;
  g_autofree char *name = NULL;

  gtk_tree_model_get (model, iter, COMPLETION_INSERT, &insert, COMPLETION_NAME, &name, -1);
  return has_folded_prefix (name, key) || has_folded_prefix (insert, key);
}

static void
setup_choice_cb (GtkSignalListItemFactory *factory,
                 GtkListItem              *list_item,
                 gpointer                  ellipsize)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  if (ellipsize != NULL)
    {
      /* a long table or index name must not set the form's width: it ellipsizes (the
       * dropdown's tooltip and its list have all of it) */
      gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_MIDDLE);
      gtk_label_set_width_chars (GTK_LABEL (label), 6);
      gtk_label_set_max_width_chars (GTK_LABEL (label), 40);
    }
  gtk_list_item_set_child (list_item, label);
}

static void
bind_choice_cb (GtkSignalListItemFactory *factory,
                GtkListItem              *list_item,
                gpointer                  user_data)
{
  GtkStringObject *string = gtk_list_item_get_item (list_item);

  gtk_label_set_label (GTK_LABEL (gtk_list_item_get_child (list_item)),
                       string != NULL ? gtk_string_object_get_string (string) : "");
}

static GtkListItemFactory *
new_choice_factory (gboolean ellipsize)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();

  g_signal_connect (factory, "setup", G_CALLBACK (setup_choice_cb),
                    ellipsize ? GINT_TO_POINTER (1) : NULL);
  g_signal_connect (factory, "bind", G_CALLBACK (bind_choice_cb), NULL);
  return factory;
}

static void
dropdown_selected_cb (GtkDropDown *dropdown)
{
  GtkStringObject *string = gtk_drop_down_get_selected_item (dropdown);

  gtk_widget_set_tooltip_text (GTK_WIDGET (dropdown),
                               string != NULL ? gtk_string_object_get_string (string) : NULL);
}

/* The form's dropdowns ellipsize a long choice (the list shows all of it) and expose their
 * activation to assistive technologies. */
static void
setup_dropdown (GtkWidget *dropdown)
{
  g_autoptr(GtkListItemFactory) factory = new_choice_factory (TRUE);
  g_autoptr(GtkListItemFactory) list_factory = new_choice_factory (FALSE);

  dyno_widget_expose_activate (dropdown);
  gtk_drop_down_set_factory (GTK_DROP_DOWN (dropdown), factory);
  gtk_drop_down_set_list_factory (GTK_DROP_DOWN (dropdown), list_factory);
}

static const char *
entry_text (GtkWidget *entry)
{
  return gtk_editable_get_text (GTK_EDITABLE (entry));
}

static void
set_entry_text (GtkWidget  *entry,
                const char *text)
{
  gtk_editable_set_text (GTK_EDITABLE (entry), text ? text : "");
}

static DynoOperation
get_operation (DynoBuilderForm *self)
{
  switch (gtk_drop_down_get_selected (GTK_DROP_DOWN (self->operation_dropdown)))
    {
    case 1:
      return DYNO_OP_SCAN;
    case 2:
      return DYNO_OP_GET_ITEM;
    case 0:
    default:
      return DYNO_OP_QUERY;
    }
}

static const char *
get_index_name (DynoBuilderForm *self)
{
  guint pos = gtk_drop_down_get_selected (GTK_DROP_DOWN (self->target_dropdown));

  if (self->index_names == NULL || pos >= self->index_names->len)
    return NULL;

  return g_ptr_array_index (self->index_names, pos);
}

/* The key attributes of the selected target (table or index). */
static void
get_target_keys (DynoBuilderForm    *self,
                 const DynoKeyAttr **pk,
                 const DynoKeyAttr **sk)
{
  const char *index_name = get_index_name (self);

  *pk = NULL;
  *sk = NULL;

  if (self->info == NULL)
    return;

  /* GetItem always reads the table's own key. */
  if (index_name != NULL && get_operation (self) != DYNO_OP_GET_ITEM)
    {
      const DynoIndexInfo *index = dyno_table_info_find_index (self->info, index_name);

      if (index != NULL)
        {
          *pk = &index->partition_key;
          *sk = index->sort_key.name != NULL ? &index->sort_key : NULL;
          return;
        }
    }

  *pk = dyno_table_info_get_partition_key (self->info);
  *sk = dyno_table_info_get_sort_key (self->info);
  if (*sk != NULL && (*sk)->name == NULL)
    *sk = NULL;
}

static DynoSortKeyOperator
get_sort_op (DynoBuilderForm *self)
{
  guint pos = gtk_drop_down_get_selected (GTK_DROP_DOWN (self->sk_op_dropdown));

  if (self->sort_ops == NULL || pos >= self->sort_ops->len)
    return DYNO_SORT_KEY_NONE;

  return GPOINTER_TO_INT (g_ptr_array_index (self->sort_ops, pos));
}

static void
select_sort_op (DynoBuilderForm     *self,
                DynoSortKeyOperator  op)
{
  for (guint i = 0; self->sort_ops != NULL && i < self->sort_ops->len; i++)
    if (GPOINTER_TO_INT (g_ptr_array_index (self->sort_ops, i)) == (int) op)
      {
        gtk_drop_down_set_selected (GTK_DROP_DOWN (self->sk_op_dropdown), i);
        return;
      }
}

/* The sort-key dropdown and the draft's operator: a position holds an operator. */
static gboolean
sort_op_to_position_cb (GBinding     *binding,
                        const GValue *from,
                        GValue       *to,
                        gpointer      user_data)
{
  DynoBuilderForm *self = user_data;
  int op = g_value_get_enum (from);

  for (guint i = 0; self->sort_ops != NULL && i < self->sort_ops->len; i++)
    if (GPOINTER_TO_INT (g_ptr_array_index (self->sort_ops, i)) == op)
      {
        g_value_set_uint (to, i);
        return TRUE;
      }

  return FALSE;
}

static gboolean
position_to_sort_op_cb (GBinding     *binding,
                        const GValue *from,
                        GValue       *to,
                        gpointer      user_data)
{
  DynoBuilderForm *self = user_data;
  guint pos = g_value_get_uint (from);

  if (self->sort_ops == NULL || pos >= self->sort_ops->len)
    return FALSE;

  g_value_set_enum (to, GPOINTER_TO_INT (g_ptr_array_index (self->sort_ops, pos)));
  return TRUE;
}

/* The options write to the draft as they change. */
static gboolean
descending_to_forward_cb (GBinding     *binding,
                          const GValue *from,
                          GValue       *to,
                          gpointer      user_data)
{
  g_value_set_enum (to, g_value_get_boolean (from) ? DYNO_TRISTATE_FALSE : DYNO_TRISTATE_UNSET);
  return TRUE;
}

static gboolean
switch_to_tristate_cb (GBinding     *binding,
                       const GValue *from,
                       GValue       *to,
                       gpointer      user_data)
{
  g_value_set_enum (to, g_value_get_boolean (from) ? DYNO_TRISTATE_TRUE : DYNO_TRISTATE_UNSET);
  return TRUE;
}

/* a page size below 1 is no Limit */
static gboolean
spin_to_limit_cb (GBinding     *binding,
                  const GValue *from,
                  GValue       *to,
                  gpointer      user_data)
{
  double value = g_value_get_double (from);

  g_value_set_int64 (to, value >= 1 ? (gint64) value : 0);
  return TRUE;
}

static gboolean
spin_to_max_items_cb (GBinding     *binding,
                      const GValue *from,
                      GValue       *to,
                      gpointer      user_data)
{
  double value = g_value_get_double (from);

  g_value_set_uint64 (to, value >= 1 ? (guint64) value : 0);
  return TRUE;
}

/* The draft reads what the dropdowns say: a Query's or a Scan's target (GetItem reads the
 * table's own key, with the same key fields). */
static void
sync_draft_target (DynoBuilderForm *self)
{
  DynoOperation op = get_operation (self);

  dyno_query_draft_set_operation (self->draft, op == DYNO_OP_SCAN ? DYNO_OP_SCAN
                                                                   : DYNO_OP_QUERY);
  dyno_query_draft_set_index_name (self->draft, op == DYNO_OP_GET_ITEM ? NULL
                                                                       : get_index_name (self));
}

static char *
key_value_to_text (const DynoValue *value)
{
  char *text = dyno_value_to_key_text (value);

  return text != NULL ? text : dyno_value_to_ddb_json (value);
}

static DynoValue *
parse_typed_value (const char  *text,
                   guint        value_type,
                   GError     **error)
{
  switch (value_type)
    {
    case VALUE_TYPE_N:
      return dyno_value_new_number (text, -1, error);

    case VALUE_TYPE_B:
      return dyno_value_new_from_key_text (text, DYNO_VALUE_B, error);

    case VALUE_TYPE_BOOL:
      if (g_ascii_strcasecmp (text, "true") == 0)
        return dyno_value_new_bool (TRUE);
      if (g_ascii_strcasecmp (text, "false") == 0)
        return dyno_value_new_bool (FALSE);
      g_set_error (error, DYNO_ERROR, DYNO_ERROR_INVALID_VALUE,
                   _("A BOOL value is true or false, not “%s”"), text);
      return NULL;

    case VALUE_TYPE_NULL:
      return dyno_value_new_null ();

    case VALUE_TYPE_JSON:
      return dyno_value_from_ddb_json (text, -1, error);

    case VALUE_TYPE_S:
    default:
      return dyno_value_new_string (text, -1);
    }
}

static guint
value_type_for (const DynoValue *value)
{
  switch (dyno_value_get_kind (value))
    {
    case DYNO_VALUE_S:
      return VALUE_TYPE_S;
    case DYNO_VALUE_N:
      return VALUE_TYPE_N;
    case DYNO_VALUE_B:
      return VALUE_TYPE_B;
    case DYNO_VALUE_BOOL:
      return VALUE_TYPE_BOOL;
    case DYNO_VALUE_NULL:
      return VALUE_TYPE_NULL;
    default:
      return VALUE_TYPE_JSON;
    }
}

static char *
typed_value_to_text (const DynoValue *value)
{
  switch (dyno_value_get_kind (value))
    {
    case DYNO_VALUE_BOOL:
      return g_strdup (dyno_value_get_bool (value) ? "true" : "false");
    case DYNO_VALUE_NULL:
      return g_strdup ("");
    case DYNO_VALUE_S:
    case DYNO_VALUE_N:
    case DYNO_VALUE_B:
      return key_value_to_text (value);
    default:
      return dyno_value_to_ddb_json (value);
    }
}

/* ---- filter rows ----------------------------------------------------------------------- */

static void
filter_row_update_visibility (FilterRow *row)
{
  guint pos = gtk_drop_down_get_selected (GTK_DROP_DOWN (row->op_dropdown));
  FilterKind kind = pos < G_N_ELEMENTS (filter_ops) ? filter_ops[pos].kind : FILTER_COMPARE;
  gboolean has_value = kind != FILTER_EXISTS && kind != FILTER_NOT_EXISTS;
  guint type = gtk_drop_down_get_selected (GTK_DROP_DOWN (row->type_dropdown));

  gtk_widget_set_visible (row->value_entry, has_value &&
                          !(type == VALUE_TYPE_NULL && kind == FILTER_COMPARE));
  gtk_widget_set_visible (row->and_label, kind == FILTER_BETWEEN);
  gtk_widget_set_visible (row->value2_entry, kind == FILTER_BETWEEN);
  /* size() compares with a number; attribute_type takes a type name. */
  gtk_widget_set_visible (row->type_dropdown,
                          has_value && kind != FILTER_SIZE && kind != FILTER_TYPE);

  if (kind == FILTER_IN)
    gtk_entry_set_placeholder_text (GTK_ENTRY (row->value_entry),
                                    _("JSON array, e.g. [\"a\", \"b\"]"));
  else if (kind == FILTER_TYPE)
    gtk_entry_set_placeholder_text (GTK_ENTRY (row->value_entry),
                                    _("S, N, B, BOOL, NULL, M, L, SS, NS or BS"));
  else
    gtk_entry_set_placeholder_text (GTK_ENTRY (row->value_entry), _("Value"));
}

static void
filter_row_changed_cb (FilterRow *row)
{
  filter_row_update_visibility (row);
  queue_revalidate (row->form);
}

static void
filter_row_free (FilterRow *row)
{
  g_free (row->quoted);
  g_free (row);
}

static void
remove_filter_row_cb (GtkButton *button,
                      FilterRow *row)
{
  DynoBuilderForm *self = row->form;

  gtk_box_remove (GTK_BOX (self->filter_rows_box), row->box);
  g_ptr_array_remove (self->filter_rows, row);
  queue_revalidate (self);
}

static void
add_filter_clicked_cb (DynoBuilderForm *self)
{
  FilterRow *row = add_filter_row (self);

  gtk_widget_grab_focus (row->path_entry);
}

static void
quote_button_clicked_cb (FilterRow *row)
{
  if (row->quoted != NULL)
    gtk_editable_set_text (GTK_EDITABLE (row->path_entry), row->quoted);
}

static FilterRow *
add_filter_row (DynoBuilderForm *self)
{
  g_autoptr(GtkBuilder) builder =
    gtk_builder_new_from_resource ("/com/dynotable/DynoTable/dyno-filter-row.ui");
  FilterRow *row = g_new0 (FilterRow, 1);
  guint n = self->filter_rows->len + 1;
  g_autofree char *path_name = g_strdup_printf (_("Filter %u attribute"), n);
  g_autofree char *op_name = g_strdup_printf (_("Filter %u operator"), n);
  g_autofree char *value_name = g_strdup_printf (_("Filter %u value"), n);
  g_autofree char *value2_name = g_strdup_printf (_("Filter %u upper bound"), n);
  g_autofree char *type_name = g_strdup_printf (_("Filter %u value type"), n);
  g_autofree char *not_name = g_strdup_printf (_("Filter %u negate"), n);
  g_autofree char *remove_name = g_strdup_printf (_("Remove filter %u"), n);
  GtkStringList *op_labels;
  GtkEntryCompletion *completion;
  GtkListStore *store;

  row->form = self;
  row->box = GTK_WIDGET (gtk_builder_get_object (builder, "box"));
  row->not_button = GTK_WIDGET (gtk_builder_get_object (builder, "not_button"));
  row->path_entry = GTK_WIDGET (gtk_builder_get_object (builder, "path_entry"));
  row->op_dropdown = GTK_WIDGET (gtk_builder_get_object (builder, "op_dropdown"));
  row->remove_button = GTK_WIDGET (gtk_builder_get_object (builder, "remove_button"));
  row->type_dropdown = GTK_WIDGET (gtk_builder_get_object (builder, "type_dropdown"));
  row->value_entry = GTK_WIDGET (gtk_builder_get_object (builder, "value_entry"));
  row->and_label = GTK_WIDGET (gtk_builder_get_object (builder, "and_label"));
  row->value2_entry = GTK_WIDGET (gtk_builder_get_object (builder, "value2_entry"));
  row->error_label = GTK_WIDGET (gtk_builder_get_object (builder, "error_label"));
  row->quote_button = GTK_WIDGET (gtk_builder_get_object (builder, "quote_button"));

  /* the rows are numbered in their accessible names */
  dyno_widget_set_accessible_label (row->not_button, not_name);
  dyno_widget_set_accessible_label (row->path_entry, path_name);
  dyno_widget_set_accessible_label (row->op_dropdown, op_name);
  dyno_widget_set_accessible_label (row->remove_button, remove_name);
  dyno_widget_set_accessible_label (row->type_dropdown, type_name);
  dyno_widget_set_accessible_label (row->value_entry, value_name);
  dyno_widget_set_accessible_label (row->value2_entry, value2_name);

  /* Paths complete from the attributes seen in results. */
  store = gtk_list_store_new (2, G_TYPE_STRING, G_TYPE_STRING);
  {
    g_autoptr(GPtrArray) names = g_ptr_array_new ();

    for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (self->known_attributes)); i++)
      g_ptr_array_add (names, (gpointer) gtk_string_list_get_string (self->known_attributes, i));
    fill_completion_store (store, (const char * const *) names->pdata, names->len);
  }
  completion = gtk_entry_completion_new ();
  gtk_entry_completion_set_model (completion, GTK_TREE_MODEL (store));
  /* a name that needs quoting (order.total, order-date) goes in quoted, or the dot would
   * make it a path */
  gtk_entry_completion_set_text_column (completion, COMPLETION_INSERT);
  gtk_entry_completion_set_match_func (completion, completion_match, NULL, NULL);
  gtk_entry_completion_set_inline_completion (completion, TRUE);
  gtk_entry_set_completion (GTK_ENTRY (row->path_entry), completion);
  g_object_unref (completion);
  g_object_unref (store);

  /* the operators, in the order of filter_ops[] */
  op_labels = GTK_STRING_LIST (gtk_drop_down_get_model (GTK_DROP_DOWN (row->op_dropdown)));
  for (guint i = 0; i < G_N_ELEMENTS (filter_ops); i++)
    gtk_string_list_append (op_labels, _(filter_ops[i].label));
  setup_dropdown (row->op_dropdown);
  setup_dropdown (row->type_dropdown);

  g_signal_connect (row->op_dropdown, "notify::selected-item", G_CALLBACK (dropdown_selected_cb),
                    NULL);
  g_signal_connect (row->type_dropdown, "notify::selected-item",
                    G_CALLBACK (dropdown_selected_cb), NULL);
  g_signal_connect_swapped (row->not_button, "toggled", G_CALLBACK (filter_row_changed_cb), row);
  g_signal_connect_swapped (row->path_entry, "changed", G_CALLBACK (filter_row_changed_cb), row);
  g_signal_connect_swapped (row->op_dropdown, "notify::selected",
                            G_CALLBACK (filter_row_changed_cb), row);
  g_signal_connect_swapped (row->type_dropdown, "notify::selected",
                            G_CALLBACK (filter_row_changed_cb), row);
  g_signal_connect_swapped (row->value_entry, "changed", G_CALLBACK (filter_row_changed_cb), row);
  g_signal_connect_swapped (row->value2_entry, "changed", G_CALLBACK (filter_row_changed_cb), row);
  g_signal_connect (row->remove_button, "clicked", G_CALLBACK (remove_filter_row_cb), row);
  g_signal_connect_swapped (row->quote_button, "clicked", G_CALLBACK (quote_button_clicked_cb),
                            row);

  dyno_field_error_add_field (row->error_label, row->path_entry);
  dyno_field_error_add_field (row->error_label, row->value_entry);
  dyno_field_error_add_field (row->error_label, row->value2_entry);
  /* what validation says about the filter as a whole is about every row's attribute */
  dyno_field_error_add_field (self->filter_error, row->path_entry);

  gtk_box_append (GTK_BOX (self->filter_rows_box), row->box);
  g_ptr_array_add (self->filter_rows, row);
  filter_row_update_visibility (row);

  return row;
}

static void
clear_filter_rows (DynoBuilderForm *self)
{
  while (self->filter_rows->len > 0)
    {
      FilterRow *row = g_ptr_array_index (self->filter_rows, self->filter_rows->len - 1);

      gtk_box_remove (GTK_BOX (self->filter_rows_box), row->box);
      g_ptr_array_remove_index (self->filter_rows, self->filter_rows->len - 1);
    }
}

static gboolean
filter_row_is_empty (FilterRow *row)
{
  return *entry_text (row->path_entry) == '\0' && *entry_text (row->value_entry) == '\0';
}

/* Builds the condition of one row, or NULL with the row's error set. */
static DynoExpr *
filter_row_build (FilterRow *row)
{
  guint pos = gtk_drop_down_get_selected (GTK_DROP_DOWN (row->op_dropdown));
  const FilterOp *op = &filter_ops[MIN (pos, G_N_ELEMENTS (filter_ops) - 1)];
  guint type = gtk_drop_down_get_selected (GTK_DROP_DOWN (row->type_dropdown));
  g_autoptr(GError) error = NULL;
  g_autoptr(DynoPath) path = NULL;
  g_autoptr(DynoValue) value = NULL;
  g_autoptr(DynoValue) value2 = NULL;
  DynoExpr *expr = NULL;

  if (*entry_text (row->path_entry) == '\0')
    {
      set_error (row->error_label, _("Enter the attribute to filter on"));
      return NULL;
    }

  path = dyno_path_parse_inline (entry_text (row->path_entry), &error);
  if (path == NULL)
    {
      set_error (row->error_label, error->message);
      return NULL;
    }
  {
    g_autofree char *quoted = NULL;
    g_autofree char *problem = dotted_name_problem (row->form, path, &quoted);

    if (problem != NULL)
      {
        g_autofree char *label = g_strdup_printf (_("Use %s"), quoted);

        set_error (row->error_label, problem);
        g_free (row->quoted);
        row->quoted = g_steal_pointer (&quoted);
        gtk_button_set_label (GTK_BUTTON (row->quote_button), label);
        gtk_widget_set_visible (row->quote_button, TRUE);
        return NULL;
      }
  }

  switch (op->kind)
    {
    case FILTER_EXISTS:
      return dyno_expr_new_function (DYNO_FUNCTION_ATTRIBUTE_EXISTS,
                                     dyno_expr_new_path (g_steal_pointer (&path)), NULL);

    case FILTER_NOT_EXISTS:
      return dyno_expr_new_function (DYNO_FUNCTION_ATTRIBUTE_NOT_EXISTS,
                                     dyno_expr_new_path (g_steal_pointer (&path)), NULL);

    case FILTER_TYPE:
      {
        DynoValueType vt;
        const char *name = entry_text (row->value_entry);

        if (!dyno_value_type_from_string (name, &vt))
          {
            set_error (row->error_label,
                       _("The type is one of S, N, B, BOOL, NULL, M, L, SS, NS or BS"));
            return NULL;
          }
        return dyno_expr_new_function (DYNO_FUNCTION_ATTRIBUTE_TYPE,
                                       dyno_expr_new_path (g_steal_pointer (&path)),
                                       dyno_expr_new_value (dyno_value_new_string (name, -1)),
                                       NULL);
      }

    case FILTER_SIZE:
      value = dyno_value_new_number (entry_text (row->value_entry), -1, &error);
      if (value == NULL)
        {
          set_error (row->error_label, error->message);
          return NULL;
        }
      return dyno_expr_new_compare (op->compare, dyno_expr_new_size (g_steal_pointer (&path)),
                                    dyno_expr_new_value (g_steal_pointer (&value)));

    case FILTER_IN:
      {
        g_autofree char *json = NULL;
        g_autoptr(DynoValue) list = NULL;
        GPtrArray *operands;

        /* The list is a JSON array of plain values, typed by the type selector. */
        json = g_strdup (entry_text (row->value_entry));
        list = dyno_value_from_plain_json (json, -1, NULL, &error);
        if (list == NULL || dyno_value_get_kind (list) != DYNO_VALUE_L)
          {
            set_error (row->error_label,
                       error ? error->message
                             : _("Write the values as a JSON array, e.g. [\"open\", \"paid\"]"));
            return NULL;
          }
        operands = g_ptr_array_new_with_free_func ((GDestroyNotify) dyno_expr_free);
        for (guint i = 0; i < dyno_value_get_n_children (list); i++)
          {
            const DynoValue *child = dyno_value_get_child (list, i);
            g_autofree char *text = typed_value_to_text (child);
            DynoValue *typed;

            if (type == VALUE_TYPE_JSON)
              typed = dyno_value_copy (child);
            else
              typed = parse_typed_value (text, type, &error);
            if (typed == NULL)
              {
                set_error (row->error_label, error->message);
                g_ptr_array_unref (operands);
                return NULL;
              }
            g_ptr_array_add (operands, dyno_expr_new_value (typed));
          }
        return dyno_expr_new_in (dyno_expr_new_path (g_steal_pointer (&path)), operands);
      }

    case FILTER_COMPARE:
    case FILTER_BETWEEN:
    case FILTER_BEGINS_WITH:
    case FILTER_CONTAINS:
    default:
      break;
    }

  value = parse_typed_value (entry_text (row->value_entry), type, &error);
  if (value == NULL)
    {
      set_error (row->error_label, error->message);
      return NULL;
    }

  switch (op->kind)
    {
    case FILTER_BETWEEN:
      value2 = parse_typed_value (entry_text (row->value2_entry), type, &error);
      if (value2 == NULL)
        {
          set_error (row->error_label, error->message);
          return NULL;
        }
      expr = dyno_expr_new_between (dyno_expr_new_path (g_steal_pointer (&path)),
                                    dyno_expr_new_value (g_steal_pointer (&value)),
                                    dyno_expr_new_value (g_steal_pointer (&value2)));
      break;

    case FILTER_BEGINS_WITH:
      expr = dyno_expr_new_function (DYNO_FUNCTION_BEGINS_WITH,
                                     dyno_expr_new_path (g_steal_pointer (&path)),
                                     dyno_expr_new_value (g_steal_pointer (&value)), NULL);
      break;

    case FILTER_CONTAINS:
      expr = dyno_expr_new_function (DYNO_FUNCTION_CONTAINS,
                                     dyno_expr_new_path (g_steal_pointer (&path)),
                                     dyno_expr_new_value (g_steal_pointer (&value)), NULL);
      break;

    case FILTER_COMPARE:
    default:
      expr = dyno_expr_new_compare (op->compare, dyno_expr_new_path (g_steal_pointer (&path)),
                                    dyno_expr_new_value (g_steal_pointer (&value)));
      break;
    }

  return expr;
}

/* Fills a row from a condition; FALSE when the condition has no row form. */
static gboolean
filter_row_load (FilterRow      *row,
                 const DynoExpr *expr)
{
  gboolean negated = FALSE;
  g_autofree char *path_text = NULL;
  guint op_pos = G_MAXUINT;
  const DynoExpr *value = NULL;
  const DynoExpr *value2 = NULL;
  const DynoPath *path = NULL;

  while (expr->kind == DYNO_EXPR_PAREN)
    expr = g_ptr_array_index (expr->args, 0);

  if (expr->kind == DYNO_EXPR_NOT)
    {
      negated = TRUE;
      expr = g_ptr_array_index (expr->args, 0);
      while (expr->kind == DYNO_EXPR_PAREN)
        expr = g_ptr_array_index (expr->args, 0);
    }

  if (expr->kind == DYNO_EXPR_COMPARE)
    {
      const DynoExpr *left = g_ptr_array_index (expr->args, 0);
      const DynoExpr *right = g_ptr_array_index (expr->args, 1);

      if (right->kind != DYNO_EXPR_VALUE)
        return FALSE;

      if (left->kind == DYNO_EXPR_PATH || left->kind == DYNO_EXPR_SIZE)
        {
          for (guint i = 0; i < G_N_ELEMENTS (filter_ops); i++)
            if (filter_ops[i].compare == expr->op.compare &&
                filter_ops[i].kind == (left->kind == DYNO_EXPR_SIZE ? FILTER_SIZE : FILTER_COMPARE))
              op_pos = i;
        }
      if (op_pos == G_MAXUINT)
        return FALSE;
      path = left->path;
      value = right;
    }
  else if (expr->kind == DYNO_EXPR_BETWEEN)
    {
      const DynoExpr *operand = g_ptr_array_index (expr->args, 0);

      value = g_ptr_array_index (expr->args, 1);
      value2 = g_ptr_array_index (expr->args, 2);
      if (operand->kind != DYNO_EXPR_PATH || value->kind != DYNO_EXPR_VALUE ||
          value2->kind != DYNO_EXPR_VALUE ||
          dyno_value_get_kind (value->value) != dyno_value_get_kind (value2->value))
        return FALSE;
      path = operand->path;
      op_pos = 6;
    }
  else if (expr->kind == DYNO_EXPR_FUNCTION)
    {
      const DynoExpr *operand = g_ptr_array_index (expr->args, 0);

      if (operand->kind != DYNO_EXPR_PATH)
        return FALSE;
      path = operand->path;
      if (expr->args->len > 1)
        {
          value = g_ptr_array_index (expr->args, 1);
          if (value->kind != DYNO_EXPR_VALUE)
            return FALSE;
        }

      switch (expr->op.function)
        {
        case DYNO_FUNCTION_ATTRIBUTE_EXISTS:
          op_pos = 10;
          break;
        case DYNO_FUNCTION_ATTRIBUTE_NOT_EXISTS:
          op_pos = 11;
          break;
        case DYNO_FUNCTION_ATTRIBUTE_TYPE:
          op_pos = 12;
          break;
        case DYNO_FUNCTION_BEGINS_WITH:
          op_pos = 8;
          break;
        case DYNO_FUNCTION_CONTAINS:
          op_pos = 9;
          break;
        default:
          return FALSE;
        }
    }
  else if (expr->kind == DYNO_EXPR_IN)
    {
      const DynoExpr *operand = g_ptr_array_index (expr->args, 0);
      g_autoptr(GString) json = g_string_new ("[");
      DynoValueType first_kind = DYNO_VALUE_S;

      if (operand->kind != DYNO_EXPR_PATH)
        return FALSE;

      for (guint i = 1; i < expr->args->len; i++)
        {
          const DynoExpr *item = g_ptr_array_index (expr->args, i);

          if (item->kind != DYNO_EXPR_VALUE)
            return FALSE;
          if (i == 1)
            first_kind = dyno_value_get_kind (item->value);
          else if (dyno_value_get_kind (item->value) != first_kind)
            return FALSE;
          if (first_kind != DYNO_VALUE_S && first_kind != DYNO_VALUE_N)
            return FALSE;
          if (i > 1)
            g_string_append (json, ", ");
          dyno_value_write_plain_json (item->value, json);
        }
      g_string_append_c (json, ']');

      path_text = dyno_path_to_inline (operand->path);
      set_entry_text (row->path_entry, path_text);
      gtk_drop_down_set_selected (GTK_DROP_DOWN (row->op_dropdown), 7);
      gtk_drop_down_set_selected (GTK_DROP_DOWN (row->type_dropdown),
                                  first_kind == DYNO_VALUE_N ? VALUE_TYPE_N : VALUE_TYPE_S);
      set_entry_text (row->value_entry, json->str);
      gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (row->not_button), negated);
      return TRUE;
    }
  else
    {
      return FALSE;
    }

  path_text = dyno_path_to_inline (path);
  set_entry_text (row->path_entry, path_text);
  gtk_drop_down_set_selected (GTK_DROP_DOWN (row->op_dropdown), op_pos);
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (row->not_button), negated);

  if (value != NULL)
    {
      g_autofree char *text = NULL;

      if (filter_ops[op_pos].kind == FILTER_TYPE)
        text = g_strdup (dyno_value_get_string (value->value, NULL));
      else
        text = typed_value_to_text (value->value);
      set_entry_text (row->value_entry, text);
      gtk_drop_down_set_selected (GTK_DROP_DOWN (row->type_dropdown),
                                  value_type_for (value->value));
    }
  if (value2 != NULL)
    {
      g_autofree char *text = typed_value_to_text (value2->value);
      set_entry_text (row->value2_entry, text);
    }

  return TRUE;
}

/* Collects the operands of a chain of one combinator (a AND b AND c). */
static void
flatten_chain (const DynoExpr *expr,
               DynoExprKind    kind,
               GPtrArray      *out)
{
  if (expr->kind == kind)
    {
      for (guint i = 0; i < expr->args->len; i++)
        flatten_chain (g_ptr_array_index (expr->args, i), kind, out);
    }
  else
    {
      g_ptr_array_add (out, (gpointer) expr);
    }
}

/* ---- building the request ---------------------------------------------------------------- */

static DynoExpr *
build_filter (DynoBuilderForm *self,
              gboolean        *ok)
{
  gboolean use_or = gtk_drop_down_get_selected (GTK_DROP_DOWN (self->combinator_dropdown)) == 1;
  DynoExpr *result = NULL;

  *ok = TRUE;

  /* Build right to left, so chains nest to the right as DynamoDB parses them. */
  for (guint i = self->filter_rows->len; i > 0; i--)
    {
      FilterRow *row = g_ptr_array_index (self->filter_rows, i - 1);
      DynoExpr *expr;

      set_error (row->error_label, NULL);
      gtk_widget_set_visible (row->quote_button, FALSE);

      if (filter_row_is_empty (row) && self->filter_rows->len == 1)
        continue;

      expr = filter_row_build (row);
      if (expr == NULL)
        {
          *ok = FALSE;
          continue;
        }

      if (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (row->not_button)))
        expr = dyno_expr_new_not (dyno_expr_new_paren (expr));

      if (result == NULL)
        result = expr;
      else if (use_or)
        result = dyno_expr_new_or (expr, result);
      else
        result = dyno_expr_new_and (expr, result);
    }

  if (!*ok)
    g_clear_pointer (&result, dyno_expr_free);

  return result;
}

/* The key fields are bound to the draft, which builds the condition; when it cannot, its
 * first problem is shown: an empty field as the hint Run gives, anything else at the field. */
static DynoExpr *
build_key_condition (DynoBuilderForm *self,
                     gboolean        *ok)
{
  const DynoExpr *condition = dyno_query_draft_get_key_condition (self->draft);
  g_autoptr(GPtrArray) issues = NULL;

  *ok = TRUE;
  if (condition != NULL)
    return dyno_expr_copy (condition);

  *ok = FALSE;
  issues = dyno_query_draft_validate (self->draft);
  for (guint i = 0; i < issues->len; i++)
    {
      const DynoIssue *issue = g_ptr_array_index (issues, i);
      GtkWidget *entry = NULL;
      GtkWidget *label = NULL;

      if (g_str_equal (issue->field, DYNO_DRAFT_FIELD_PARTITION_KEY_TEXT))
        {
          entry = self->pk_entry;
          label = self->pk_error;
        }
      else if (g_str_equal (issue->field, DYNO_DRAFT_FIELD_SORT_KEY_TEXT))
        {
          entry = self->sk_entry;
          label = self->sk_error;
        }
      else if (g_str_equal (issue->field, DYNO_DRAFT_FIELD_SORT_KEY_TEXT2))
        {
          entry = self->sk_entry2;
          label = self->sk_error;
        }
      else if (g_str_equal (issue->field, DYNO_DRAFT_FIELD_KEY_CONDITION))
        label = self->pk_error;
      else
        continue;

      if (entry != NULL && *entry_text (entry) == '\0')
        set_hint (self, g_strdup (issue->message));
      else
        set_error (label, issue->message);
      break;
    }

  return NULL;
}

static DynoItem *
build_key_item (DynoBuilderForm *self,
                gboolean        *ok)
{
  const DynoKeyAttr *pk, *sk;
  g_autoptr(DynoValueBuilder) builder = dyno_value_builder_new ();
  g_autoptr(DynoValue) pk_value = NULL;
  g_autoptr(GError) error = NULL;

  *ok = TRUE;
  get_target_keys (self, &pk, &sk);
  if (pk == NULL)
    {
      set_error (self->pk_error, _("The table's key schema is not known yet"));
      *ok = FALSE;
      return NULL;
    }

  if (*entry_text (self->pk_entry) == '\0' || (sk != NULL && *entry_text (self->sk_entry) == '\0'))
    {
      set_hint (self, sk != NULL
                      ? g_strdup_printf (_("Enter the whole key: %s and %s"), pk->name, sk->name)
                      : g_strdup_printf (_("Enter the partition key value (%s)"), pk->name));
      *ok = FALSE;
      return NULL;
    }

  pk_value = dyno_value_new_from_key_text (entry_text (self->pk_entry), pk->type, &error);
  if (pk_value == NULL)
    {
      set_error (self->pk_error, error->message);
      *ok = FALSE;
      return NULL;
    }

  dyno_value_builder_begin (builder, DYNO_VALUE_M);
  dyno_value_builder_key (builder, pk->name, -1);
  dyno_value_builder_add_value (builder, pk_value);
  if (sk != NULL)
    {
      g_autoptr(DynoValue) sk_value =
        dyno_value_new_from_key_text (entry_text (self->sk_entry), sk->type, &error);

      if (sk_value == NULL)
        {
          set_error (self->sk_error, error->message);
          *ok = FALSE;
          return NULL;
        }
      dyno_value_builder_key (builder, sk->name, -1);
      dyno_value_builder_add_value (builder, sk_value);
    }
  if (!dyno_value_builder_end (builder, &error))
    {
      set_error (self->key_error, error->message);
      *ok = FALSE;
      return NULL;
    }

  return dyno_item_new_take (dyno_value_builder_finish (builder));
}

static void
set_text_error (GtkWidget               *entry,
                GtkWidget               *label,
                const GError            *error,
                const DynoParseLocation *loc)
{
  g_autoptr(PangoAttrList) attrs = pango_attr_list_new ();

  if (error != NULL && loc != NULL && loc->length + loc->offset > 0)
    {
      PangoAttribute *underline = pango_attr_underline_new (PANGO_UNDERLINE_ERROR);
      gsize text_len = strlen (entry_text (entry));

      underline->start_index = MIN (loc->offset, text_len);
      underline->end_index = MIN (loc->offset + MAX (loc->length, 1), text_len);
      if (underline->start_index == underline->end_index && underline->start_index > 0)
        underline->start_index--;
      pango_attr_list_insert (attrs, underline);
    }

  gtk_entry_set_attributes (GTK_ENTRY (entry), attrs);
  set_error (label, error ? error->message : NULL);
}

static DynoExpr *
parse_text_condition (GtkWidget    *entry,
                      GtkWidget    *label,
                      DynoExprRole  role,
                      gboolean     *ok)
{
  g_autoptr(GError) error = NULL;
  DynoParseLocation loc = { 0, };
  DynoExpr *expr;
  const char *text = entry_text (entry);

  if (*text == '\0')
    {
      set_text_error (entry, label, NULL, NULL);
      return NULL;
    }

  expr = dyno_expr_parse_condition (text, DYNO_SYNTAX_INLINE, role, NULL, NULL, NULL, &loc, &error);
  if (expr == NULL)
    *ok = FALSE;
  set_text_error (entry, label, error, &loc);

  return expr;
}

/* A Query or a Scan: the conditions the fields say (@parts) go into the draft, which makes
 * the request.  The key fields and the options are bound to the draft already; in text mode
 * the typed key condition replaces the fields'. */
static DynoRequest *
request_from_draft (DynoBuilderForm *self,
                    DynoRequest     *parts)
{
  gboolean loading = self->loading;

  /* the key fields follow the draft: that is not the user typing */
  self->loading = TRUE;
  if (parts->operation == DYNO_OP_QUERY
      && gtk_switch_get_active (GTK_SWITCH (self->text_mode_switch)))
    dyno_query_draft_set_key_condition (self->draft, parts->key_condition);
  dyno_query_draft_set_filter (self->draft, parts->filter);
  dyno_query_draft_set_projection (self->draft, parts->projection);
  self->loading = loading;

  return dyno_query_draft_to_request (self->draft);
}

static DynoRequest *
build_request (DynoBuilderForm *self)
{
  DynoOperation op = get_operation (self);
  g_autoptr(DynoRequest) request = NULL;
  gboolean text_mode = gtk_switch_get_active (GTK_SWITCH (self->text_mode_switch));
  gboolean ok = TRUE;
  gboolean part_ok;
  const char *projection_text;
  double limit;

  if (self->table_name == NULL)
    return NULL;

  set_error (self->pk_error, NULL);
  set_error (self->sk_error, NULL);
  set_error (self->key_error, NULL);
  set_error (self->filter_error, NULL);
  set_error (self->projection_error, NULL);
  set_error (self->options_error, NULL);
  set_error (self->general_error, self->text_note);
  g_clear_pointer (&self->hint, g_free);

  request = dyno_request_new (op, self->table_name);

  if (op != DYNO_OP_GET_ITEM)
    request->index_name = g_strdup (get_index_name (self));

  switch (op)
    {
    case DYNO_OP_QUERY:
      if (text_mode)
        {
          request->key_condition = parse_text_condition (self->key_text_entry, self->key_text_error,
                                                         DYNO_EXPR_ROLE_KEY_CONDITION, &ok);
          if (request->key_condition == NULL && ok)
            {
              set_error (self->key_text_error,
                         _("A query needs a key condition: the partition key with ="));
              ok = FALSE;
            }
          request->filter = parse_text_condition (self->filter_text_entry, self->filter_text_error,
                                                  DYNO_EXPR_ROLE_FILTER, &ok);
          if (request->filter != NULL)
            ok &= check_text_dotted_names (self, self->filter_text_entry,
                                           self->filter_text_error, request->filter);
        }
      else
        {
          request->key_condition = build_key_condition (self, &part_ok);
          ok &= part_ok;
          request->filter = build_filter (self, &part_ok);
          ok &= part_ok;
        }
      break;

    case DYNO_OP_SCAN:
      if (text_mode)
        {
          request->filter = parse_text_condition (self->filter_text_entry, self->filter_text_error,
                                                  DYNO_EXPR_ROLE_FILTER, &ok);
          if (request->filter != NULL)
            ok &= check_text_dotted_names (self, self->filter_text_entry,
                                           self->filter_text_error, request->filter);
        }
      else
        {
          request->filter = build_filter (self, &part_ok);
          ok &= part_ok;
        }
      break;

    case DYNO_OP_GET_ITEM:
      request->key = build_key_item (self, &part_ok);
      ok &= part_ok;
      break;

    case DYNO_OP_PUT_ITEM:
    case DYNO_OP_UPDATE_ITEM:
    case DYNO_OP_DELETE_ITEM:
    default:
      g_assert_not_reached ();
    }

  projection_text = entry_text (self->projection_entry);
  if (*projection_text != '\0')
    {
      g_autoptr(GError) error = NULL;
      DynoParseLocation loc = { 0, };

      request->projection = dyno_expr_parse_projection (projection_text, DYNO_SYNTAX_INLINE,
                                                        NULL, NULL, &loc, &error);
      if (request->projection == NULL)
        {
          set_text_error (self->projection_entry, self->projection_error, error, &loc);
          ok = FALSE;
        }
      else
        {
          g_autofree char *problem = NULL;

          for (guint i = 0; problem == NULL && i < request->projection->len; i++)
            problem = dotted_name_problem (self, g_ptr_array_index (request->projection, i),
                                           NULL);
          if (problem != NULL)
            {
              g_autoptr(GError) dotted = g_error_new_literal (DYNO_ERROR, DYNO_ERROR_VALIDATION,
                                                              problem);

              set_text_error (self->projection_entry, self->projection_error, dotted, NULL);
              ok = FALSE;
            }
          else
            set_text_error (self->projection_entry, self->projection_error, NULL, NULL);
        }
    }

  if (op == DYNO_OP_QUERY)
    request->scan_index_forward =
      gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (self->descending_button))
        ? DYNO_TRISTATE_FALSE : DYNO_TRISTATE_UNSET;

  limit = gtk_spin_button_get_value (GTK_SPIN_BUTTON (self->limit_spin));
  if (op != DYNO_OP_GET_ITEM && limit >= 1)
    request->limit = (gint64) limit;

  if (gtk_switch_get_active (GTK_SWITCH (self->consistent_switch)))
    request->consistent_read = DYNO_TRISTATE_TRUE;

  request->return_consumed_capacity = DYNO_CONSUMED_TOTAL;

  if (!ok)
    return NULL;

  if (op == DYNO_OP_GET_ITEM)
    return g_steal_pointer (&request);

  return request_from_draft (self, request);
}

static GtkWidget *
issue_label_for (DynoBuilderForm *self,
                 const DynoIssue *issue)
{
  const char *field = issue->field ? issue->field : "";
  gboolean text_mode = gtk_switch_get_active (GTK_SWITCH (self->text_mode_switch));

  if (g_str_equal (field, "KeyConditionExpression") || g_str_equal (field, "Key"))
    return text_mode ? self->key_text_error : self->key_error;
  if (g_str_equal (field, "FilterExpression"))
    return text_mode ? self->filter_text_error : self->filter_error;
  if (g_str_equal (field, "ProjectionExpression"))
    return self->projection_error;
  if (g_str_equal (field, "ConsistentRead") || g_str_equal (field, "Limit") ||
      g_str_equal (field, "ScanIndexForward"))
    return self->options_error;

  return self->general_error;
}

static void
set_valid (DynoBuilderForm *self,
           gboolean         valid,
           const char      *reason)
{
  if (self->valid != valid)
    {
      self->valid = valid;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_VALID]);
    }

  if (g_strcmp0 (self->reason, reason) != 0)
    {
      g_free (self->reason);
      self->reason = g_strdup (reason);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_REASON]);
    }
}

static void
update_projection_chips (DynoBuilderForm   *self,
                         const DynoRequest *request)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (self->projection_chips)) != NULL)
    gtk_flow_box_remove (GTK_FLOW_BOX (self->projection_chips), child);

  if (request == NULL || request->projection == NULL)
    {
      gtk_widget_set_visible (self->projection_chips, FALSE);
      return;
    }

  for (guint i = 0; i < request->projection->len; i++)
    {
      g_autofree char *text = dyno_path_to_inline (g_ptr_array_index (request->projection, i));
      GtkWidget *chip = gtk_label_new (text);

      gtk_widget_add_css_class (chip, "dyno-chip");
      gtk_flow_box_append (GTK_FLOW_BOX (self->projection_chips), chip);
    }
  gtk_widget_set_visible (self->projection_chips, request->projection->len > 0);
}

/* The first error shown in the form, top to bottom, for the Run button's reason. */
static const char *
first_shown_error (DynoBuilderForm *self)
{
  GtkWidget *labels[] = {
    self->pk_error, self->sk_error, self->key_error, self->key_text_error, NULL,
    self->filter_text_error, self->filter_error, self->projection_error, self->options_error,
    self->general_error,
  };

  for (guint i = 0; i < G_N_ELEMENTS (labels); i++)
    {
      if (labels[i] == NULL)
        {
          /* the filter rows sit between the key and the rest */
          for (guint j = 0; j < self->filter_rows->len; j++)
            {
              FilterRow *row = g_ptr_array_index (self->filter_rows, j);

              if (gtk_widget_get_visible (row->error_label))
                return gtk_label_get_label (GTK_LABEL (row->error_label));
            }
          continue;
        }
      if (gtk_widget_get_visible (labels[i]))
        return gtk_label_get_label (GTK_LABEL (labels[i]));
    }

  return NULL;
}

/* A validation message without its "(DynamoDB: …)" tail: the sentence a person reads. */
static char *
short_message (const char *message)
{
  const char *tail = strstr (message, " (DynamoDB: ");

  if (tail == NULL)
    tail = strstr (message, "\n(DynamoDB: ");
  if (tail == NULL || tail == message)
    return g_strdup (message);

  return g_strndup (message, tail - message);
}

static void
revalidate (DynoBuilderForm *self)
{
  g_autoptr(GPtrArray) issues = NULL;
  g_autofree char *reason_owned = NULL;
  const char *reason = NULL;

  g_clear_handle_id (&self->revalidate_source, g_source_remove);
  g_clear_pointer (&self->request, dyno_request_free);
  self->request = build_request (self);
  update_projection_chips (self, self->request);

  if (self->request == NULL)
    {
      if (self->table_name == NULL)
        reason = _("No table selected");
      else if ((reason = first_shown_error (self)) == NULL)
        reason = self->hint ? self->hint : _("A field above needs attention");
      set_valid (self, FALSE, reason);
      g_signal_emit (self, signals[CHANGED], 0);
      return;
    }

  issues = dyno_request_validate (self->request, self->info);
  for (guint i = 0; i < issues->len; i++)
    {
      const DynoIssue *issue = g_ptr_array_index (issues, i);
      GtkWidget *label = issue_label_for (self, issue);
      g_autofree char *shown = short_message (issue->message);

      /* The field shows our sentence; DynamoDB's own wording is in its tooltip. */
      append_error (label, shown);
      if (!g_str_equal (shown, issue->message))
        {
          const char *tooltip = gtk_widget_get_tooltip_text (label);
          g_autofree char *joined = tooltip ? g_strconcat (tooltip, "\n\n", issue->message, NULL)
                                            : g_strdup (issue->message);

          gtk_widget_set_tooltip_text (label, joined);
        }
      if (reason == NULL)
        reason = reason_owned = g_steal_pointer (&shown);
    }

  set_valid (self, issues->len == 0, reason);
  g_signal_emit (self, signals[CHANGED], 0);
}

static gboolean
revalidate_idle_cb (gpointer user_data)
{
  DynoBuilderForm *self = user_data;

  self->revalidate_source = 0;
  revalidate (self);

  return G_SOURCE_REMOVE;
}

static void
queue_revalidate (DynoBuilderForm *self)
{
  if (self->loading || self->revalidate_source != 0)
    return;

  self->revalidate_source = g_idle_add (revalidate_idle_cb, self);
}

/* ---- schema-dependent parts -------------------------------------------------------------- */

static void
update_sort_ops (DynoBuilderForm *self)
{
  const DynoKeyAttr *pk, *sk;
  GtkStringList *labels = gtk_string_list_new (NULL);
  DynoSortKeyOperator previous = get_sort_op (self);

  sync_draft_target (self);
  get_target_keys (self, &pk, &sk);
  g_clear_pointer (&self->sort_ops, g_ptr_array_unref);
  self->sort_ops = g_ptr_array_new ();

  /* "any" first: a query on the partition alone */
  g_ptr_array_add (self->sort_ops, GINT_TO_POINTER (DYNO_SORT_KEY_NONE));
  gtk_string_list_append (labels, _(sort_op_labels[DYNO_SORT_KEY_NONE]));
  for (int op = DYNO_SORT_KEY_EQ; op <= DYNO_SORT_KEY_BEGINS_WITH; op++)
    {
      /* begins_with is not defined on numbers */
      if (op == DYNO_SORT_KEY_BEGINS_WITH && sk != NULL && sk->type == DYNO_VALUE_N)
        continue;
      g_ptr_array_add (self->sort_ops, GINT_TO_POINTER (op));
      gtk_string_list_append (labels, _(sort_op_labels[op]));
    }

  gtk_drop_down_set_model (GTK_DROP_DOWN (self->sk_op_dropdown), G_LIST_MODEL (labels));
  g_object_unref (labels);
  select_sort_op (self, previous);
  if (get_sort_op (self) != previous)
    select_sort_op (self, DYNO_SORT_KEY_NONE);
}

static void
update_key_fields (DynoBuilderForm *self)
{
  const DynoKeyAttr *pk, *sk;
  DynoOperation op = get_operation (self);
  DynoSortKeyOperator sort_op;
  g_autofree char *pk_text = NULL;

  get_target_keys (self, &pk, &sk);

  gtk_widget_set_visible (self->key_group, op != DYNO_OP_SCAN);
  gtk_widget_set_visible (self->filter_group, op != DYNO_OP_GET_ITEM);
  gtk_widget_set_visible (self->direction_box, op == DYNO_OP_QUERY);
  gtk_widget_set_sensitive (self->limit_spin, op != DYNO_OP_GET_ITEM);
  gtk_widget_set_sensitive (self->target_dropdown, op != DYNO_OP_GET_ITEM);

  if (pk != NULL)
    {
      pk_text = g_strdup_printf (_("Partition key: %s (%s)"), pk->name,
                                 dyno_value_type_to_string (pk->type));
      gtk_label_set_label (GTK_LABEL (self->pk_label), pk_text);
    }
  else
    {
      gtk_label_set_label (GTK_LABEL (self->pk_label), _("Partition key"));
    }

  gtk_widget_set_visible (self->sk_box, sk != NULL);
  if (sk != NULL)
    {
      g_autofree char *sk_text = g_strdup_printf (_("Sort key: %s (%s)"), sk->name,
                                                  dyno_value_type_to_string (sk->type));
      gtk_label_set_label (GTK_LABEL (self->sk_label), sk_text);
    }

  /* GetItem takes the whole key: the sort key with = only. */
  gtk_widget_set_visible (self->sk_op_dropdown, op == DYNO_OP_QUERY);
  sort_op = op == DYNO_OP_GET_ITEM ? DYNO_SORT_KEY_EQ : get_sort_op (self);
  gtk_widget_set_visible (self->sk_entry, sort_op != DYNO_SORT_KEY_NONE);
  gtk_widget_set_visible (self->sk_and_label, sort_op == DYNO_SORT_KEY_BETWEEN);
  gtk_widget_set_visible (self->sk_entry2, sort_op == DYNO_SORT_KEY_BETWEEN);
  /* in text mode the key condition is typed, not picked (the draft may still change the
   * fields' values) */
  if (gtk_switch_get_active (GTK_SWITCH (self->text_mode_switch)))
    gtk_widget_set_visible (self->sk_box, FALSE);

  /* Consistent reads are not supported on global secondary indexes. */
  {
    const char *index_name = get_index_name (self);
    const DynoIndexInfo *index = (index_name && self->info)
                                 ? dyno_table_info_find_index (self->info, index_name) : NULL;
    gboolean on_gsi = index != NULL && index->global && op != DYNO_OP_GET_ITEM;

    gtk_widget_set_sensitive (self->consistent_switch, !on_gsi);
    if (on_gsi)
      {
        g_autofree char *subtitle = NULL;

        self->consistent_forced = TRUE;
        self->consistent_updating = TRUE;
        gtk_switch_set_active (GTK_SWITCH (self->consistent_switch), FALSE);
        self->consistent_updating = FALSE;
        gtk_widget_set_tooltip_text (self->consistent_row,
                                     _("Global secondary indexes are eventually consistent: "
                                       "DynamoDB does not support consistent reads on them"));
        /* said where the user looks, not only in a tooltip */
        if (self->consistent_wanted)
          /* Translators: the index name. */
          subtitle = g_strdup_printf (_("Turned off: the global secondary index %s only "
                                        "supports eventually consistent reads. It comes back "
                                        "on with the table."), index->name);
        else
          /* Translators: the index name. */
          subtitle = g_strdup_printf (_("Off: the global secondary index %s only supports "
                                        "eventually consistent reads."), index->name);
        gtk_label_set_label (GTK_LABEL (self->consistent_subtitle), subtitle);
        gtk_widget_set_visible (self->consistent_subtitle, TRUE);
        gtk_accessible_update_property (GTK_ACCESSIBLE (self->consistent_switch),
                                        GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, subtitle, -1);
      }
    else
      {
        if (self->consistent_forced)
          {
            /* back on the table or an LSI: the user's choice again */
            self->consistent_forced = FALSE;
            self->consistent_updating = TRUE;
            gtk_switch_set_active (GTK_SWITCH (self->consistent_switch),
                                   self->consistent_wanted);
            self->consistent_updating = FALSE;
          }
        gtk_widget_set_tooltip_text (self->consistent_row,
                                     _("Read the latest committed data (twice the read capacity)"));
        gtk_label_set_label (GTK_LABEL (self->consistent_subtitle), "");
        gtk_widget_set_visible (self->consistent_subtitle, FALSE);
        gtk_accessible_reset_property (GTK_ACCESSIBLE (self->consistent_switch),
                                       GTK_ACCESSIBLE_PROPERTY_DESCRIPTION);
      }
  }
}

static void
update_target_label (DynoBuilderForm *self)
{
  const char *index_name = get_index_name (self);
  g_autofree char *text = NULL;

  if (self->info == NULL)
    {
      gtk_label_set_label (GTK_LABEL (self->target_label), _("Describing the table…"));
      return;
    }

  if (index_name != NULL)
    {
      const DynoIndexInfo *index = dyno_table_info_find_index (self->info, index_name);
      g_autofree char *keys = dyno_table_info_describe_keys (self->info, index_name);
      const char *projection = "";

      if (index != NULL)
        {
          if (index->projection == DYNO_PROJECTION_ALL)
            projection = _("projects all attributes");
          else if (index->projection == DYNO_PROJECTION_KEYS_ONLY)
            projection = _("projects keys only");
          else
            projection = _("projects keys and some attributes");
        }

      if (index != NULL && index->projection == DYNO_PROJECTION_INCLUDE &&
          index->non_key_attributes)
        {
          g_autofree char *attrs = g_strjoinv (", ", index->non_key_attributes);
          text = g_strdup_printf ("%s %s · %s (%s)", index && index->global ? _("GSI") : _("LSI"),
                                  keys, projection, attrs);
        }
      else
        {
          text = g_strdup_printf ("%s %s · %s", index && index->global ? _("GSI") : _("LSI"),
                                  keys, projection);
        }
    }
  else
    {
      g_autofree char *keys = dyno_table_info_describe_keys (self->info, NULL);
      text = g_strdup_printf (_("Table %s"), keys);
    }

  gtk_label_set_label (GTK_LABEL (self->target_label), text);
}

static void
schema_fields_changed_cb (DynoBuilderForm *self)
{
  update_sort_ops (self);
  update_key_fields (self);
  update_target_label (self);
  queue_revalidate (self);
}

static void
field_changed_cb (DynoBuilderForm *self)
{
  update_key_fields (self);
  queue_revalidate (self);
}

/* Into the draft, which shows it in the key fields when they can (then they are its source
 * from now on, as if typed); FALSE when they cannot. */
static gboolean
load_key_condition (DynoBuilderForm *self,
                    const DynoExpr  *expr)
{
  dyno_query_draft_set_key_condition (self->draft, expr);
  dyno_query_draft_take_key_from_parts (self->draft);

  return dyno_query_draft_get_key_condition_structured (self->draft);
}

static void
load_filter (DynoBuilderForm *self,
             const DynoExpr  *expr,
             gboolean        *representable)
{
  g_autoptr(GPtrArray) parts = g_ptr_array_new ();
  DynoExprKind chain = DYNO_EXPR_AND;
  const DynoExpr *top = expr;

  clear_filter_rows (self);

  if (expr == NULL)
    {
      add_filter_row (self);
      return;
    }

  while (top->kind == DYNO_EXPR_PAREN)
    top = g_ptr_array_index (top->args, 0);
  if (top->kind == DYNO_EXPR_OR)
    chain = DYNO_EXPR_OR;
  flatten_chain (top, chain, parts);
  gtk_drop_down_set_selected (GTK_DROP_DOWN (self->combinator_dropdown),
                              chain == DYNO_EXPR_OR ? 1 : 0);

  for (guint i = 0; i < parts->len; i++)
    {
      FilterRow *row = add_filter_row (self);

      if (!filter_row_load (row, g_ptr_array_index (parts, i)))
        {
          *representable = FALSE;
          clear_filter_rows (self);
          add_filter_row (self);
          return;
        }
    }
}

static void
text_mode_changed_cb (DynoBuilderForm *self)
{
  gboolean text_mode = gtk_switch_get_active (GTK_SWITCH (self->text_mode_switch));

  /* Turning the switch back on from its own notify handler notifies again later. */
  if (self->staying_in_text)
    {
      if (text_mode)
        self->staying_in_text = FALSE;
      return;
    }

  if (self->loading)
    return;

  if (text_mode)
    {
      /* Form -> text: print what the form holds in the inline syntax. */
      gboolean ok;
      g_autoptr(DynoExpr) key = NULL;
      g_autoptr(DynoExpr) filter = NULL;
      g_autofree char *key_text = NULL;
      g_autofree char *filter_text = NULL;

      if (get_operation (self) == DYNO_OP_QUERY)
        key = build_key_condition (self, &ok);
      filter = build_filter (self, &ok);

      key_text = key ? dyno_expr_to_inline (key) : NULL;
      filter_text = filter ? dyno_expr_to_inline (filter) : NULL;

      self->loading = TRUE;
      if (key_text != NULL)
        set_entry_text (self->key_text_entry, key_text);
      if (filter_text != NULL || *entry_text (self->filter_text_entry) == '\0')
        set_entry_text (self->filter_text_entry, filter_text);
      self->loading = FALSE;
    }
  else
    {
      /* Text -> form: only when the form can show it; otherwise stay in text mode. */
      gboolean ok = TRUE;
      gboolean representable = TRUE;
      g_autoptr(DynoExpr) key = NULL;
      g_autoptr(DynoExpr) filter = NULL;

      if (get_operation (self) == DYNO_OP_QUERY)
        key = parse_text_condition (self->key_text_entry, self->key_text_error,
                                    DYNO_EXPR_ROLE_KEY_CONDITION, &ok);
      filter = parse_text_condition (self->filter_text_entry, self->filter_text_error,
                                     DYNO_EXPR_ROLE_FILTER, &ok);

      if (!ok)
        {
          self->staying_in_text = TRUE;
          gtk_switch_set_active (GTK_SWITCH (self->text_mode_switch), TRUE);
          g_free (self->text_note);
          self->text_note = g_strdup (_("Fix the text before going back to the form"));
          set_error (self->general_error, self->text_note);
          return;
        }

      self->loading = TRUE;
      if (key != NULL)
        representable = load_key_condition (self, key);
      if (representable)
        load_filter (self, filter, &representable);
      self->loading = FALSE;

      if (!representable)
        {
          self->staying_in_text = TRUE;
          gtk_switch_set_active (GTK_SWITCH (self->text_mode_switch), TRUE);
          g_free (self->text_note);
          self->text_note = g_strdup (_("This condition uses more than the form can show (nested "
                                        "groups or functions on both sides): keep editing it "
                                        "as text"));
          set_error (self->general_error, self->text_note);
          return;
        }
    }

  g_clear_pointer (&self->text_note, g_free);
  gtk_widget_set_visible (self->text_box, text_mode);
  gtk_widget_set_visible (self->pk_entry, !text_mode);
  gtk_widget_set_visible (gtk_widget_get_parent (self->pk_entry), !text_mode);
  gtk_widget_set_visible (self->sk_box, !text_mode && gtk_widget_get_visible (self->sk_box));
  gtk_widget_set_visible (self->filter_rows_box, !text_mode);
  gtk_widget_set_visible (gtk_widget_get_parent (self->combinator_dropdown), !text_mode);
  update_key_fields (self);
  if (text_mode)
    gtk_widget_set_visible (self->sk_box, FALSE);
  queue_revalidate (self);
}

static void
text_changed_cb (DynoBuilderForm *self)
{
  /* the note was about the text as it was */
  if (!self->loading)
    g_clear_pointer (&self->text_note, g_free);
  queue_revalidate (self);
}

/* ---- construction ----------------------------------------------------------------------- */

static void
consistent_toggled_cb (DynoBuilderForm *self)
{
  if (!self->consistent_updating)
    self->consistent_wanted = gtk_switch_get_active (GTK_SWITCH (self->consistent_switch));
  queue_revalidate (self);
}

static void
build_ui (DynoBuilderForm *self)
{
  setup_dropdown (self->operation_dropdown);
  setup_dropdown (self->target_dropdown);
  setup_dropdown (self->sk_op_dropdown);
  setup_dropdown (self->combinator_dropdown);

  /* Which fields each message speaks about. */
  dyno_field_error_add_field (self->pk_error, self->pk_entry);
  dyno_field_error_add_field (self->sk_error, self->sk_entry);
  dyno_field_error_add_field (self->sk_error, self->sk_entry2);
  dyno_field_error_add_field (self->key_error, self->pk_entry);
  dyno_field_error_add_field (self->key_error, self->sk_entry);
  dyno_field_error_add_field (self->key_text_error, self->key_text_entry);
  dyno_field_error_add_field (self->filter_text_error, self->filter_text_entry);
  dyno_field_error_add_field (self->projection_error, self->projection_entry);
  dyno_field_error_add_field (self->options_error, self->limit_spin);

  add_filter_row (self);

  /* the key fields are the draft's parts */
  g_object_bind_property (self->draft, "partition-key-text", self->pk_entry, "text",
                          G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
  g_object_bind_property (self->draft, "sort-key-text", self->sk_entry, "text",
                          G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
  g_object_bind_property (self->draft, "sort-key-text2", self->sk_entry2, "text",
                          G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
  g_object_bind_property_full (self->draft, "sort-key-operator", self->sk_op_dropdown,
                               "selected", G_BINDING_BIDIRECTIONAL,
                               sort_op_to_position_cb, position_to_sort_op_cb, self, NULL);

  /* the options write to the draft (loading a request sets them like a person would) */
  g_object_bind_property_full (self->descending_button, "active", self->draft,
                               "scan-index-forward", G_BINDING_SYNC_CREATE,
                               descending_to_forward_cb, NULL, NULL, NULL);
  g_object_bind_property_full (self->limit_spin, "value", self->draft, "limit",
                               G_BINDING_SYNC_CREATE, spin_to_limit_cb, NULL, NULL, NULL);
  g_object_bind_property_full (self->consistent_switch, "active", self->draft,
                               "consistent-read", G_BINDING_SYNC_CREATE,
                               switch_to_tristate_cb, NULL, NULL, NULL);
  g_object_bind_property_full (self->max_items_spin, "value", self->draft, "max-items",
                               G_BINDING_SYNC_CREATE, spin_to_max_items_cb, NULL, NULL, NULL);
  /* the ledger shows capacity */
  dyno_query_draft_set_return_consumed_capacity (self->draft, DYNO_CONSUMED_TOTAL);
}

static void
dyno_builder_form_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  DynoBuilderForm *self = DYNO_BUILDER_FORM (object);

  switch (prop_id)
    {
    case PROP_VALID:
      g_value_set_boolean (value, self->valid);
      break;

    case PROP_REASON:
      g_value_set_string (value, self->reason);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
dyno_builder_form_dispose (GObject *object)
{
  DynoBuilderForm *self = DYNO_BUILDER_FORM (object);

  g_clear_handle_id (&self->revalidate_source, g_source_remove);
  gtk_widget_dispose_template (GTK_WIDGET (self), DYNO_TYPE_BUILDER_FORM);

  G_OBJECT_CLASS (dyno_builder_form_parent_class)->dispose (object);
}

static void
dyno_builder_form_finalize (GObject *object)
{
  DynoBuilderForm *self = DYNO_BUILDER_FORM (object);

  g_clear_pointer (&self->table_name, g_free);
  g_clear_pointer (&self->info, dyno_table_info_unref);
  g_clear_object (&self->draft);
  g_clear_pointer (&self->index_names, g_ptr_array_unref);
  g_clear_pointer (&self->sort_ops, g_ptr_array_unref);
  g_clear_pointer (&self->filter_rows, g_ptr_array_unref);
  g_clear_object (&self->known_attributes);
  g_clear_pointer (&self->reason, g_free);
  g_clear_pointer (&self->hint, g_free);
  g_clear_pointer (&self->text_note, g_free);
  g_clear_pointer (&self->request, dyno_request_free);

  G_OBJECT_CLASS (dyno_builder_form_parent_class)->finalize (object);
}

static void
dyno_builder_form_class_init (DynoBuilderFormClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->get_property = dyno_builder_form_get_property;
  object_class->dispose = dyno_builder_form_dispose;
  object_class->finalize = dyno_builder_form_finalize;

  properties[PROP_VALID] =
    g_param_spec_boolean ("valid", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_REASON] =
    g_param_spec_string ("reason", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* Emitted after every revalidation: the request, its validity or the reason changed. */
  signals[CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                   NULL, NULL, NULL, G_TYPE_NONE, 0);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "dynobuilderform");

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/com/dynotable/DynoTable/dyno-builder-form.ui");
  gtk_widget_class_bind_template_child (widget_class, DynoBuilderForm, scroller);
  gtk_widget_class_bind_template_child (widget_class, DynoBuilderForm, operation_dropdown);
  gtk_widget_class_bind_template_child (widget_class, DynoBuilderForm, target_dropdown);
  gtk_widget_class_bind_template_child (widget_class, DynoBuilderForm, target_label);
  gtk_widget_class_bind_template_child (widget_class, DynoBuilderForm, key_group);
  gtk_widget_class_bind_template_child (widget_class, DynoBuilderForm, pk_label);
  gtk_widget_class_bind_template_child (widget_class, DynoBuilderForm, pk_entry);
  gtk_widget_class_bind_template_child (widget_class, DynoBuilderForm, pk_error);
  gtk_widget_class_bind_template_child (widget_class, DynoBuilderForm, sk_box);
  gtk_widget_class_bind_template_child (widget_class, DynoBuilderForm, sk_label);
  gtk_widget_class_bind_template_child (widget_class, DynoBuilderForm, sk_op_dropdown);
  gtk_widget_class_bind_template_child (widget_class, DynoBuilderForm, sk_entry);
  gtk_widget_class_bind_template_child (widget_class, DynoBuilderForm, sk_and_label);
  gtk_widget_class_bind_template_child (widget_class, DynoBuilderForm, sk_entry2);
  gtk_widget_class_bind_template_child (widget_class, DynoBuilderForm, sk_error);
  gtk_widget_class_bind_template_child (widget_class, DynoBuilderForm, key_error);
  gtk_widget_class_bind_template_child (widget_class, DynoBuilderForm, filter_group);
  gtk_widget_class_bind_template_child (widget_class, DynoBuilderForm, combinator_dropdown);
  gtk_widget_class_bind_template_child (widget_class, DynoBuilderForm, filter_rows_box);
  gtk_widget_class_bind_template_child (widget_class, DynoBuilderForm, filter_error);
  gtk_widget_class_bind_template_child (widget_class, DynoBuilderForm, text_mode_switch);
  gtk_widget_class_bind_template_child (widget_class, DynoBuilderForm, text_box);
  gtk_widget_class_bind_template_child (widget_class, DynoBuilderForm, key_text_entry);
  gtk_widget_class_bind_template_child (widget_class, DynoBuilderForm, key_text_error);
  gtk_widget_class_bind_template_child (widget_class, DynoBuilderForm, filter_text_entry);
  gtk_widget_class_bind_template_child (widget_class, DynoBuilderForm, filter_text_error);
  gtk_widget_class_bind_template_child (widget_class, DynoBuilderForm, projection_entry);
  gtk_widget_class_bind_template_child (widget_class, DynoBuilderForm, projection_chips);
  gtk_widget_class_bind_template_child (widget_class, DynoBuilderForm, projection_error);
  gtk_widget_class_bind_template_child (widget_class, DynoBuilderForm, direction_box);
  gtk_widget_class_bind_template_child (widget_class, DynoBuilderForm, ascending_button);
  gtk_widget_class_bind_template_child (widget_class, DynoBuilderForm, descending_button);
  gtk_widget_class_bind_template_child (widget_class, DynoBuilderForm, limit_spin);
  gtk_widget_class_bind_template_child (widget_class, DynoBuilderForm, max_items_spin);
  gtk_widget_class_bind_template_child (widget_class, DynoBuilderForm, consistent_switch);
  gtk_widget_class_bind_template_child (widget_class, DynoBuilderForm, consistent_row);
  gtk_widget_class_bind_template_child (widget_class, DynoBuilderForm, consistent_subtitle);
  gtk_widget_class_bind_template_child (widget_class, DynoBuilderForm, options_error);
  gtk_widget_class_bind_template_child (widget_class, DynoBuilderForm, general_error);
  gtk_widget_class_bind_template_callback (widget_class, dropdown_selected_cb);
  gtk_widget_class_bind_template_callback (widget_class, schema_fields_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, field_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, queue_revalidate);
  gtk_widget_class_bind_template_callback (widget_class, add_filter_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, text_mode_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, text_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, consistent_toggled_cb);
}

static void
dyno_builder_form_init (DynoBuilderForm *self)
{
  self->filter_rows = g_ptr_array_new_with_free_func ((GDestroyNotify) filter_row_free);
  self->known_attributes = gtk_string_list_new (NULL);
  self->index_names = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (self->index_names, NULL);
  self->draft = dyno_query_draft_new ();
  gtk_widget_init_template (GTK_WIDGET (self));
  build_ui (self);
  update_sort_ops (self);
  update_key_fields (self);
  update_target_label (self);
}

GtkWidget *
dyno_builder_form_new (void)
{
  return g_object_new (DYNO_TYPE_BUILDER_FORM, NULL);
}

void
dyno_builder_form_set_table (DynoBuilderForm *self,
                             const char      *table_name,
                             DynoTableInfo   *info,
                             const char      *index_name)
{
  GtkStringList *targets;
  guint selected = 0;

  g_return_if_fail (DYNO_IS_BUILDER_FORM (self));

  g_free (self->table_name);
  self->table_name = g_strdup (table_name);
  g_clear_pointer (&self->info, dyno_table_info_unref);
  if (info != NULL)
    self->info = dyno_table_info_ref (info);
  dyno_query_draft_set_table_name (self->draft, table_name);
  dyno_query_draft_set_table_info (self->draft, info);

  g_ptr_array_set_size (self->index_names, 0);
  g_ptr_array_add (self->index_names, NULL);
  targets = gtk_string_list_new (NULL);
  gtk_string_list_append (targets, table_name ? table_name : _("Table"));

  for (guint i = 0; info != NULL && i < dyno_table_info_get_n_indexes (info); i++)
    {
      const DynoIndexInfo *index = dyno_table_info_get_index (info, i);
      g_autofree char *label = g_strdup_printf ("%s (%s)", index->name,
                                                index->global ? _("GSI") : _("LSI"));

      g_ptr_array_add (self->index_names, g_strdup (index->name));
      gtk_string_list_append (targets, label);
      if (g_strcmp0 (index->name, index_name) == 0)
        selected = i + 1;
    }

  self->loading = TRUE;
  gtk_drop_down_set_model (GTK_DROP_DOWN (self->target_dropdown), G_LIST_MODEL (targets));
  gtk_drop_down_set_selected (GTK_DROP_DOWN (self->target_dropdown), selected);
  self->loading = FALSE;
  g_object_unref (targets);

  schema_fields_changed_cb (self);
}

DynoRequest *
dyno_builder_form_dup_request (DynoBuilderForm *self)
{
  g_return_val_if_fail (DYNO_IS_BUILDER_FORM (self), NULL);

  /* Reading the request must not redo the fields' messages: it is the one the last
   * revalidation built (done now if one is pending). */
  if (self->revalidate_source != 0)
    revalidate (self);

  return self->request ? dyno_request_copy (self->request) : NULL;
}

gboolean
dyno_builder_form_get_valid (DynoBuilderForm *self)
{
  g_return_val_if_fail (DYNO_IS_BUILDER_FORM (self), FALSE);

  if (self->revalidate_source != 0)
    revalidate (self);

  return self->valid;
}

const char *
dyno_builder_form_get_reason (DynoBuilderForm *self)
{
  g_return_val_if_fail (DYNO_IS_BUILDER_FORM (self), NULL);

  if (self->revalidate_source != 0)
    revalidate (self);

  return self->reason;
}

guint64
dyno_builder_form_get_max_items (DynoBuilderForm *self)
{
  g_return_val_if_fail (DYNO_IS_BUILDER_FORM (self), 0);
  return (guint64) gtk_spin_button_get_value (GTK_SPIN_BUTTON (self->max_items_spin));
}

void
dyno_builder_form_load_request (DynoBuilderForm   *self,
                                const DynoRequest *request)
{
  gboolean representable = TRUE;
  guint op_pos;

  g_return_if_fail (DYNO_IS_BUILDER_FORM (self));
  g_return_if_fail (request != NULL);

  switch (request->operation)
    {
    case DYNO_OP_SCAN:
      op_pos = 1;
      break;
    case DYNO_OP_GET_ITEM:
      op_pos = 2;
      break;
    case DYNO_OP_QUERY:
    default:
      op_pos = 0;
      break;
    }

  self->loading = TRUE;
  gtk_drop_down_set_selected (GTK_DROP_DOWN (self->operation_dropdown), op_pos);
  for (guint i = 0; i < self->index_names->len; i++)
    if (g_strcmp0 (g_ptr_array_index (self->index_names, i), request->index_name) == 0)
      gtk_drop_down_set_selected (GTK_DROP_DOWN (self->target_dropdown), i);
  update_sort_ops (self);
  update_key_fields (self);
  update_target_label (self);

  if (request->key_condition != NULL)
    {
      g_autofree char *text = dyno_expr_to_inline (request->key_condition);

      set_entry_text (self->key_text_entry, text);
      representable = load_key_condition (self, request->key_condition);
    }
  else if (request->key != NULL)
    {
      const DynoKeyAttr *pk, *sk;

      get_target_keys (self, &pk, &sk);
      if (pk != NULL && dyno_item_lookup (request->key, pk->name) != NULL)
        {
          g_autofree char *text = key_value_to_text (dyno_item_lookup (request->key, pk->name));
          set_entry_text (self->pk_entry, text);
        }
      if (sk != NULL && dyno_item_lookup (request->key, sk->name) != NULL)
        {
          g_autofree char *text = key_value_to_text (dyno_item_lookup (request->key, sk->name));
          set_entry_text (self->sk_entry, text);
        }
    }

  {
    g_autofree char *text = request->filter ? dyno_expr_to_inline (request->filter) : NULL;
    set_entry_text (self->filter_text_entry, text);
  }
  if (representable)
    load_filter (self, request->filter, &representable);

  {
    g_autofree char *text = request->projection
                            ? dyno_projection_to_inline (request->projection) : NULL;
    set_entry_text (self->projection_entry, text);
  }

  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (request->scan_index_forward ==
                                                   DYNO_TRISTATE_FALSE ? self->descending_button
                                                                       : self->ascending_button),
                                TRUE);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (self->limit_spin),
                             request->limit > 0 ? request->limit : 0);
  gtk_switch_set_active (GTK_SWITCH (self->consistent_switch),
                         request->consistent_read == DYNO_TRISTATE_TRUE);
  gtk_switch_set_active (GTK_SWITCH (self->text_mode_switch), !representable);
  gtk_widget_set_visible (self->text_box, !representable);
  self->loading = FALSE;

  update_key_fields (self);
  queue_revalidate (self);
}

DynoQueryDraft *
dyno_builder_form_dup_draft (DynoBuilderForm *self)
{
  g_autoptr(DynoQueryDraft) copy = NULL;
  g_autofree char *json = NULL;

  g_return_val_if_fail (DYNO_IS_BUILDER_FORM (self), NULL);

  if (self->table_name == NULL || get_operation (self) == DYNO_OP_GET_ITEM)
    return NULL;
  /* the draft holds the filter and projection as of the last revalidation */
  if (self->revalidate_source != 0)
    revalidate (self);

  json = dyno_query_draft_to_json (self->draft, FALSE);
  copy = dyno_query_draft_new ();
  if (!dyno_query_draft_load_json (copy, json, -1, NULL))
    return NULL;
  dyno_query_draft_set_table_info (copy, self->info);
  return g_steal_pointer (&copy);
}

void
dyno_builder_form_load_draft (DynoBuilderForm *self,
                              DynoQueryDraft  *draft)
{
  g_autoptr(DynoRequest) request = NULL;

  g_return_if_fail (DYNO_IS_BUILDER_FORM (self));
  g_return_if_fail (DYNO_IS_QUERY_DRAFT (draft));

  request = dyno_query_draft_to_request (draft);
  dyno_builder_form_load_request (self, request);
  /* an unfinished key is not in the request: its parts are shown as they were left */
  if (request->operation == DYNO_OP_QUERY && request->key_condition == NULL)
    {
      dyno_query_draft_set_partition_key_text (self->draft,
                                               dyno_query_draft_get_partition_key_text (draft));
      dyno_query_draft_set_sort_key_operator (self->draft,
                                              dyno_query_draft_get_sort_key_operator (draft));
      dyno_query_draft_set_sort_key_text (self->draft,
                                          dyno_query_draft_get_sort_key_text (draft));
      dyno_query_draft_set_sort_key_text2 (self->draft,
                                           dyno_query_draft_get_sort_key_text2 (draft));
      update_key_fields (self);
    }
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (self->max_items_spin),
                             (double) dyno_query_draft_get_max_items (draft));
  queue_revalidate (self);
}

void
dyno_builder_form_set_sort_key_prefix (DynoBuilderForm *self,
                                       const char      *prefix)
{
  g_return_if_fail (DYNO_IS_BUILDER_FORM (self));

  if (gtk_switch_get_active (GTK_SWITCH (self->text_mode_switch)))
    gtk_switch_set_active (GTK_SWITCH (self->text_mode_switch), FALSE);

  gtk_drop_down_set_selected (GTK_DROP_DOWN (self->operation_dropdown), 0);
  select_sort_op (self, DYNO_SORT_KEY_BEGINS_WITH);
  set_entry_text (self->sk_entry, prefix);
  update_key_fields (self);
  revalidate (self);
}

void
dyno_builder_form_set_known_attributes (DynoBuilderForm    *self,
                                        const char * const *names)
{
  g_return_if_fail (DYNO_IS_BUILDER_FORM (self));

  gtk_string_list_splice (self->known_attributes, 0,
                          g_list_model_get_n_items (G_LIST_MODEL (self->known_attributes)),
                          names);

  for (guint i = 0; i < self->filter_rows->len; i++)
    {
      FilterRow *row = g_ptr_array_index (self->filter_rows, i);
      GtkEntryCompletion *completion = gtk_entry_get_completion (GTK_ENTRY (row->path_entry));
      GtkListStore *store = GTK_LIST_STORE (gtk_entry_completion_get_model (completion));

      fill_completion_store (store, names, names ? g_strv_length ((char **) names) : 0);
    }
  /* a path may have become a dotted name the items have, or stopped being one */
  queue_revalidate (self);
}

void
dyno_builder_form_focus (DynoBuilderForm *self)
{
  g_return_if_fail (DYNO_IS_BUILDER_FORM (self));

  if (gtk_widget_get_visible (self->key_group))
    gtk_widget_grab_focus (self->pk_entry);
  else
    gtk_widget_grab_focus (self->operation_dropdown);
}
