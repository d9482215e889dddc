/* dyno-expr.h: one AST for key conditions, filter/condition, projection and update
 * expressions; two parsers into it; one printer out of it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "dyno-error.h"
#include "dyno-value.h"

G_BEGIN_DECLS

/* Which request field an expression belongs to; used in messages ("Invalid
 * KeyConditionExpression: …") and for the rules that differ between them. */
typedef enum {
  DYNO_EXPR_ROLE_KEY_CONDITION,
  DYNO_EXPR_ROLE_FILTER,
  DYNO_EXPR_ROLE_CONDITION,
  DYNO_EXPR_ROLE_PROJECTION,
  DYNO_EXPR_ROLE_UPDATE,
} DynoExprRole;

/* "KeyConditionExpression", "FilterExpression", … */
const char *dyno_expr_role_to_field (DynoExprRole role);

/* ---- document paths ---------------------------------------------------------------------- */

typedef struct {
  char  *name;     /* map key / attribute name, or NULL for a list index */
  guint  index;    /* list index when name == NULL */
} DynoPathElement;

typedef struct {
  GArray *elements; /* DynoPathElement; the first is always a name */
} DynoPath;

DynoPath *dyno_path_new           (const char     *attribute);
DynoPath *dyno_path_copy          (const DynoPath *path);
void      dyno_path_free          (DynoPath       *path);
void      dyno_path_append_name   (DynoPath       *path,
                                   const char     *name);
void      dyno_path_append_index  (DynoPath       *path,
                                   guint           index);
guint     dyno_path_get_length    (const DynoPath *path);
/* The top-level attribute name. */
const char *dyno_path_get_attribute (const DynoPath *path);
gboolean  dyno_path_equal         (const DynoPath *a,
                                   const DynoPath *b);
/* For messages, DynamoDB's rendering: [a, b, [0]] */
char     *dyno_path_to_display    (const DynoPath *path);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DynoPath, dyno_path_free)

/* ---- expressions ------------------------------------------------------------------------- */

typedef enum {
  /* operands */
  DYNO_EXPR_PATH,          /* path */
  DYNO_EXPR_VALUE,         /* value */
  DYNO_EXPR_SIZE,          /* size(path): path */
  /* update-expression operands (SET) */
  DYNO_EXPR_PLUS,          /* args[0] + args[1] */
  DYNO_EXPR_MINUS,         /* args[0] - args[1] */
  DYNO_EXPR_IF_NOT_EXISTS, /* if_not_exists(args[0] (a PATH), args[1]) */
  DYNO_EXPR_LIST_APPEND,   /* list_append(args[0], args[1]) */
  /* conditions */
  DYNO_EXPR_COMPARE,       /* args[0] <op.compare> args[1] */
  DYNO_EXPR_BETWEEN,       /* args[0] BETWEEN args[1] AND args[2] */
  DYNO_EXPR_IN,            /* args[0] IN (args[1], …) */
  DYNO_EXPR_AND,           /* args[0] AND args[1] (binary; chains nest to the right) */
  DYNO_EXPR_OR,
  DYNO_EXPR_NOT,           /* NOT args[0] */
  DYNO_EXPR_FUNCTION,      /* op.function (args…) */
  DYNO_EXPR_PAREN,         /* ( args[0] ): kept so text round-trips as written */
} DynoExprKind;

typedef enum {
  DYNO_COMPARE_EQ,  /* =  */
  DYNO_COMPARE_NE,  /* <> */
  DYNO_COMPARE_LT,  /* <  */
  DYNO_COMPARE_LE,  /* <= */
  DYNO_COMPARE_GT,  /* >  */
  DYNO_COMPARE_GE,  /* >= */
} DynoCompareOp;

typedef enum {
  DYNO_FUNCTION_ATTRIBUTE_EXISTS,
  DYNO_FUNCTION_ATTRIBUTE_NOT_EXISTS,
  DYNO_FUNCTION_ATTRIBUTE_TYPE,
  DYNO_FUNCTION_BEGINS_WITH,
  DYNO_FUNCTION_CONTAINS,
} DynoFunction;

const char *dyno_compare_op_to_string (DynoCompareOp op);   /* "=", "<>", … */
const char *dyno_function_to_string   (DynoFunction  func); /* "begins_with", … */
guint       dyno_function_get_arity   (DynoFunction  func); /* 1 or 2 */

typedef struct _DynoExpr DynoExpr;
struct _DynoExpr {
  DynoExprKind  kind;
  union {
    DynoCompareOp compare;
    DynoFunction  function;
  } op;
  DynoPath     *path;        /* PATH, SIZE */
  DynoValue    *value;       /* VALUE */
  char         *value_name;  /* VALUE: the placeholder it was written with (":pk"), or NULL;
                              * the printer prefers it when it does not collide */
  GPtrArray    *args;        /* DynoExpr*, owned; NULL for leaves */
  gsize         offset;      /* where the node starts in the parsed text (bytes), and */
  gsize         length;      /* how long it is, for messages pointing at a column */
};

DynoExpr *dyno_expr_new_path      (DynoPath       *path);     /* takes ownership */
DynoExpr *dyno_expr_new_value     (DynoValue      *value);    /* takes ownership */
DynoExpr *dyno_expr_new_size      (DynoPath       *path);
DynoExpr *dyno_expr_new_compare   (DynoCompareOp   op,
                                   DynoExpr       *left,
                                   DynoExpr       *right);
DynoExpr *dyno_expr_new_between   (DynoExpr       *operand,
                                   DynoExpr       *low,
                                   DynoExpr       *high);
DynoExpr *dyno_expr_new_in        (DynoExpr       *operand,
                                   GPtrArray      *list);     /* DynoExpr*, takes ownership */
DynoExpr *dyno_expr_new_and       (DynoExpr       *left,
                                   DynoExpr       *right);
DynoExpr *dyno_expr_new_or        (DynoExpr       *left,
                                   DynoExpr       *right);
DynoExpr *dyno_expr_new_not       (DynoExpr       *operand);
DynoExpr *dyno_expr_new_paren     (DynoExpr       *inner);
/* args: NULL-terminated list of DynoExpr*, ownership taken */
DynoExpr *dyno_expr_new_function  (DynoFunction    func,
                                   ...) G_GNUC_NULL_TERMINATED;
DynoExpr *dyno_expr_new_arith     (DynoExprKind    kind,      /* PLUS, MINUS, IF_NOT_EXISTS,
                                                                 LIST_APPEND */
                                   DynoExpr       *a,
                                   DynoExpr       *b);
DynoExpr *dyno_expr_copy          (const DynoExpr *expr);
void      dyno_expr_free          (DynoExpr       *expr);
gboolean  dyno_expr_equal         (const DynoExpr *a,         /* structure and values; ignores */
                                   const DynoExpr *b);        /* offsets, names, PAREN nodes */

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DynoExpr, dyno_expr_free)

/* ---- update expressions ------------------------------------------------------------------ */

typedef enum {
  DYNO_UPDATE_SET,     /* path = operand */
  DYNO_UPDATE_REMOVE,  /* path */
  DYNO_UPDATE_ADD,     /* path value (operand is a VALUE) */
  DYNO_UPDATE_DELETE,  /* path value (operand is a VALUE, a set) */
} DynoUpdateAction;

typedef struct {
  DynoUpdateAction  action;
  DynoPath         *path;
  DynoExpr         *operand;  /* NULL for REMOVE */
} DynoUpdateClause;

typedef struct {
  GPtrArray *clauses;  /* DynoUpdateClause*, in the order written */
} DynoUpdate;

DynoUpdate *dyno_update_new        (void);
void        dyno_update_add_clause (DynoUpdate       *update,
                                    DynoUpdateAction  action,
                                    DynoPath         *path,      /* takes ownership */
                                    DynoExpr         *operand);  /* takes ownership, or NULL */
DynoUpdate *dyno_update_copy       (const DynoUpdate *update);
void        dyno_update_free       (DynoUpdate       *update);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DynoUpdate, dyno_update_free)

/* Same clauses in the same order, with equal paths and operands (dyno_expr_equal). */
gboolean    dyno_update_equal      (const DynoUpdate *a,
                                    const DynoUpdate *b);

/* Projection: a GPtrArray of DynoPath* with dyno_path_free as its free func. */
GPtrArray  *dyno_projection_new    (void);
gboolean    dyno_projection_equal  (GPtrArray        *a,
                                    GPtrArray        *b);

/* ---- parsing ----------------------------------------------------------------------------- */

/* DynamoDB's own syntax: #names and :values resolved through the maps (names: char* ->
 * char*, values: char* -> DynoValue*; either may be NULL).  Bare names that are reserved
 * words are rejected as DynamoDB does.  Placeholders that are used are added to @used (a set
 * of char*, may be NULL), so callers can report unused ones.
 *
 * Inline-literal syntax (for people and the CLI): bare identifiers (reserved words allowed),
 * backticks for any other name (`order-date`, `a.b` is one attribute), `.`/`[n]` paths,
 * "JSON strings" (S), bare numbers (N), true/false, null; :placeholders only through
 * @values.  Only AND, OR, NOT, BETWEEN, IN must be quoted as names.
 *
 * On error: DYNO_ERROR_SYNTAX (or _VALIDATION for undefined placeholders / reserved words)
 * with a message naming the column, and @loc (may be NULL) set to where it is. */
typedef enum {
  DYNO_SYNTAX_DYNAMODB,
  DYNO_SYNTAX_INLINE,
} DynoSyntax;

DynoExpr   *dyno_expr_parse_condition  (const char        *text,
                                        DynoSyntax         syntax,
                                        DynoExprRole       role,
                                        GHashTable        *names,
                                        GHashTable        *values,
                                        GHashTable        *used,
                                        DynoParseLocation *loc,
                                        GError           **error);
/* comma-separated paths */
GPtrArray  *dyno_expr_parse_projection (const char        *text,
                                        DynoSyntax         syntax,
                                        GHashTable        *names,
                                        GHashTable        *used,
                                        DynoParseLocation *loc,
                                        GError           **error);
DynoUpdate *dyno_expr_parse_update     (const char        *text,
                                        DynoSyntax         syntax,
                                        GHashTable        *names,
                                        GHashTable        *values,
                                        GHashTable        *used,
                                        DynoParseLocation *loc,
                                        GError           **error);
/* Note on @used above: the parsers add g_strdup()ed placeholders ("#n", ":v"), so create it
 * with g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL). */

/* One path in the inline syntax (`a.b[2]`, `order-date`). */
DynoPath   *dyno_path_parse_inline     (const char        *text,
                                        GError           **error);

/* ---- printing ---------------------------------------------------------------------------- */

/* Prints several expressions of one request with one shared set of placeholders: readable
 * (#pk, :pk, #status, :status_1), collision-free, every name that needs it aliased
 * (reserved words, dots, dashes, leading digits, any non-identifier), names reused, values
 * numbered per attribute, nothing unused. */
typedef struct _DynoExprPrinter DynoExprPrinter;

DynoExprPrinter *dyno_expr_printer_new              (void);
void             dyno_expr_printer_free             (DynoExprPrinter  *printer);
/* When TRUE every attribute name is aliased, reserved or not (default FALSE: only those that
 * need it). */
void             dyno_expr_printer_set_alias_all    (DynoExprPrinter  *printer,
                                                     gboolean          alias_all);
char            *dyno_expr_printer_print_condition  (DynoExprPrinter  *printer,
                                                     const DynoExpr   *expr);
char            *dyno_expr_printer_print_projection (DynoExprPrinter  *printer,
                                                     GPtrArray        *paths);
char            *dyno_expr_printer_print_update     (DynoExprPrinter  *printer,
                                                     const DynoUpdate *update);
/* In first-use order.  Pairs of (placeholder, name) / (placeholder, DynoValue*). */
guint            dyno_expr_printer_get_n_names      (DynoExprPrinter  *printer);
void             dyno_expr_printer_get_name         (DynoExprPrinter  *printer,
                                                     guint             i,
                                                     const char      **placeholder,
                                                     const char      **name);
guint            dyno_expr_printer_get_n_values     (DynoExprPrinter  *printer);
void             dyno_expr_printer_get_value        (DynoExprPrinter  *printer,
                                                     guint             i,
                                                     const char      **placeholder,
                                                     const DynoValue **value);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DynoExprPrinter, dyno_expr_printer_free)

/* The inline-literal syntax, for the text mode and the CLI (values written as literals where
 * the syntax has them; other types as :placeholders listed in @values_out, which may be
 * NULL (then such values are written as DynamoDB JSON after a ':' marker)). */
char       *dyno_expr_to_inline            (const DynoExpr   *expr);
char       *dyno_update_to_inline          (const DynoUpdate *update);
char       *dyno_projection_to_inline      (GPtrArray        *paths);
char       *dyno_path_to_inline            (const DynoPath   *path);

/* The 1-based column, in characters, of byte @offset of @text: for DynoIssue locations, which
 * carry only offset and length (the AST does not keep the text). */
guint       dyno_expr_offset_to_column     (const char       *text,
                                            gsize             offset);

/* Walks PAREN nodes down to the first other node. */
const DynoExpr *dyno_expr_skip_parens      (const DynoExpr   *expr);
/* Appends to @out (borrowed DynoExpr*) the top-level AND terms of @expr, in order, each with
 * its parentheses skipped: `(a AND (b)) AND c` gives a, b, c. */
void            dyno_expr_flatten_and      (const DynoExpr   *expr,
                                            GPtrArray        *out);

/* ---- DynamoDB's limits on expressions (checked by dyno_request_validate()) ---------------- */

/* DynamoDB's maximum document path depth. */
#define DYNO_EXPR_MAX_PATH_DEPTH 32
/* DynamoDB's maximum number of IN operands (after the left-hand operand). */
#define DYNO_EXPR_MAX_IN_OPERANDS 100
/* DynamoDB's limits on one expression string: its length in bytes (4 KB), and the operators
 * and functions in it (AND, OR, NOT, comparisons, BETWEEN, IN, functions, and in an
 * UpdateExpression + and -). */
#define DYNO_EXPR_MAX_BYTES 4096
#define DYNO_EXPR_MAX_OPERATORS 300
/* DynamoDB's limit on one placeholder (#name or :value), in bytes. */
#define DYNO_EXPR_MAX_PLACEHOLDER_BYTES 255

/* ---- names ------------------------------------------------------------------------------- */

/* Case-insensitive, against the 573 reserved words. */
gboolean    dyno_is_reserved_word          (const char       *name);
/* TRUE when a bare name may appear as is: [A-Za-z][A-Za-z0-9_]* and not reserved. */
gboolean    dyno_name_is_plain             (const char       *name);

G_END_DECLS
