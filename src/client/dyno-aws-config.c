/* dyno-aws-config.c: parser for the shared AWS files ~/.aws/config and ~/.aws/credentials
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "dyno-aws-config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "dyno-error.h"

typedef struct _Property Property;
struct _Property {
  char      *key;
  char      *value;
  guint      line;
  GPtrArray *subs;   /* Property*, or NULL */
};

struct _DynoAwsSection {
  DynoAwsSectionKind kind;
  gboolean           ignored;  /* not a section the SDKs read (e.g. [foo] in the config file) */
  char              *name;
  guint              line;
  GPtrArray         *props;    /* Property* */
};

struct _DynoAwsConfig {
  char      *filename;
  gboolean   exists;
  GPtrArray *sections;         /* DynoAwsSection* */
};

static void
property_free (gpointer data)
{
  Property *prop = data;

  g_free (prop->key);
  g_free (prop->value);
  g_clear_pointer (&prop->subs, g_ptr_array_unref);
  g_free (prop);
}

static void
section_free (gpointer data)
{
  DynoAwsSection *section = data;

  g_free (section->name);
  g_ptr_array_unref (section->props);
  g_free (section);
}

void
dyno_aws_config_free (DynoAwsConfig *config)
{
  if (config == NULL)
    return;
  g_free (config->filename);
  g_ptr_array_unref (config->sections);
  g_free (config);
}

static DynoAwsConfig *
config_new (const char *filename)
{
  DynoAwsConfig *config = g_new0 (DynoAwsConfig, 1);

  config->filename = g_strdup (filename != NULL ? filename : "(config)");
  config->exists = TRUE;
  config->sections = g_ptr_array_new_with_free_func (section_free);
  return config;
}

static gboolean
is_blank (char c)
{
  return c == ' ' || c == '\t';
}

static char *
strip (const char *start,
       const char *end)
{
  while (start < end && is_blank (*start))
    start++;
  while (end > start && is_blank (end[-1]))
    end--;
  return g_strndup (start, end - start);
}

/* Where a comment starts: '#' or ';' preceded by whitespace (or at the start), as the SDKs'
 * shared parser has it, so a '#' inside a URL or a key is kept. */
static const char *
find_comment (const char *start,
              const char *end)
{
  for (const char *p = start; p < end; p++)
    if ((*p == '#' || *p == ';') && (p == start || is_blank (p[-1])))
      return p;
  return end;
}

static Property *
find_property (GPtrArray  *props,
               const char *key)
{
  if (props == NULL || key == NULL)
    return NULL;
  for (guint i = 0; i < props->len; i++)
    {
      Property *prop = g_ptr_array_index (props, i);

      if (g_ascii_strcasecmp (prop->key, key) == 0)
        return prop;
    }
  return NULL;
}

/* Sets @key, replacing an earlier value (the last one wins, as in the SDKs). */
static Property *
set_property (GPtrArray  *props,
              char       *key,
              char       *value,
              guint       line)
{
  Property *prop = find_property (props, key);

  if (prop != NULL)
    {
      g_free (key);
      g_free (prop->value);
      g_clear_pointer (&prop->subs, g_ptr_array_unref);
    }
  else
    {
      prop = g_new0 (Property, 1);
      prop->key = key;
      g_ptr_array_add (props, prop);
    }
  prop->value = value;
  prop->line = line;
  return prop;
}

static DynoAwsSection *
find_section (DynoAwsConfig      *config,
              DynoAwsSectionKind  kind,
              gboolean            ignored,
              const char         *name)
{
  for (guint i = 0; i < config->sections->len; i++)
    {
      DynoAwsSection *section = g_ptr_array_index (config->sections, i);

      if (section->kind == kind && section->ignored == ignored && g_str_equal (section->name, name))
        return section;
    }
  return NULL;
}

/* "profile  dev" → "dev" when @word starts @text and is followed by whitespace. */
static const char *
after_word (const char *text,
            const char *word)
{
  gsize len = strlen (word);

  if (strncmp (text, word, len) != 0 || !is_blank (text[len]))
    return NULL;
  text += len;
  while (is_blank (*text))
    text++;
  return text;
}

static DynoAwsSection *
open_section (DynoAwsConfig   *config,
              DynoAwsFileKind  file_kind,
              const char      *header,
              guint            line)
{
  DynoAwsSectionKind kind = DYNO_AWS_SECTION_PROFILE;
  gboolean ignored = FALSE;
  const char *name = header;
  const char *rest;
  DynoAwsSection *section;

  if (file_kind == DYNO_AWS_FILE_CONFIG)
    {
      /* In the config file, only [default] goes without the "profile " prefix; [dev] is not
       * a profile at all. */
      if (g_str_equal (header, "default"))
        name = "default";
      else if ((rest = after_word (header, "profile")) != NULL)
        name = rest;
      else if ((rest = after_word (header, "sso-session")) != NULL)
        {
          kind = DYNO_AWS_SECTION_SSO_SESSION;
          name = rest;
        }
      else if ((rest = after_word (header, "services")) != NULL)
        {
          kind = DYNO_AWS_SECTION_SERVICES;
          name = rest;
        }
      else
        ignored = TRUE;
      if (*name == '\0')
        ignored = TRUE;
    }

  section = find_section (config, kind, ignored, name);
  if (section == NULL)
    {
      section = g_new0 (DynoAwsSection, 1);
      section->kind = kind;
      section->ignored = ignored;
      section->name = g_strdup (name);
      section->line = line;
      section->props = g_ptr_array_new_with_free_func (property_free);
      g_ptr_array_add (config->sections, section);
    }
  return section;
}

/* Sets a "FILE:LINE: message" error and returns NULL, for `return parse_error (…);`. */
static gpointer
parse_error (GError     **error,
             const char  *filename,
             guint        line,
             const char  *format,
             ...) G_GNUC_PRINTF (4, 5);

static gpointer
parse_error (GError     **error,
             const char  *filename,
             guint        line,
             const char  *format,
             ...)
{
  g_autofree char *message = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG, "%s:%u: %s", filename, line, message);
  return NULL;
}

/* Splits "key = value" (the value may be empty).  FALSE when there is no '=' or no key. */
static gboolean
split_property (const char  *start,
                const char  *end,
                gboolean     strip_comment,
                char       **key,
                char       **value)
{
  const char *eq = memchr (start, '=', end - start);
  g_autofree char *k = NULL;

  if (eq == NULL)
    return FALSE;
  k = strip (start, eq);
  if (*k == '\0')
    return FALSE;
  if (strip_comment)
    end = find_comment (eq + 1, end);
  *value = strip (eq + 1, end);
  *key = g_steal_pointer (&k);
  return TRUE;
}

DynoAwsConfig *
dyno_aws_config_parse (const char       *text,
                       gssize            length,
                       const char       *filename,
                       DynoAwsFileKind   kind,
                       GError          **error)
{
  g_autoptr(DynoAwsConfig) config = NULL;
  DynoAwsSection *section = NULL;
  Property *prop = NULL;
  const char *p;
  const char *text_end;
  guint line_no = 0;

  g_return_val_if_fail (text != NULL || length == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  config = config_new (filename);
  if (text == NULL)
    return g_steal_pointer (&config);
  if (length < 0)
    length = strlen (text);
  text_end = text + length;

  p = text;
  if (length >= 3 && memcmp (p, "\xef\xbb\xbf", 3) == 0)
    p += 3;

  while (p < text_end)
    {
      const char *line = p;
      const char *end = memchr (p, '\n', text_end - p);
      const char *first;

      if (end == NULL)
        end = text_end;
      p = end < text_end ? end + 1 : text_end;
      line_no++;
      if (end > line && end[-1] == '\r')
        end--;

      if (!g_utf8_validate (line, end - line, NULL) || memchr (line, '\0', end - line) != NULL)
        return parse_error (error, config->filename, line_no,
                            _("the line is not valid UTF-8 text"));

      first = line;
      while (first < end && is_blank (*first))
        first++;
      if (first == end || *first == '#' || *first == ';')
        continue;   /* blank line or comment */

      if (first > line)
        {
          /* An indented line: part of the property above. */
          char *key;
          char *value;

          if (prop == NULL)
            return parse_error (error, config->filename, line_no,
                                section == NULL
                                ? _("the file must start with a section header such as "
                                    "[default]")
                                : _("an indented line must follow a “key =” property line"));
          if (*prop->value == '\0' || prop->subs != NULL)
            {
              if (!split_property (first, end, TRUE, &key, &value))
                return parse_error (error, config->filename, line_no,
                                    _("expected an indented sub-property “key = value” under "
                                      "“%s”"), prop->key);
              if (prop->subs == NULL)
                prop->subs = g_ptr_array_new_with_free_func (property_free);
              set_property (prop->subs, key, value, line_no);
            }
          else
            {
              g_autofree char *more = strip (first, end);
              char *joined = g_strconcat (prop->value, "\n", more, NULL);

              g_free (prop->value);
              prop->value = joined;
            }
          continue;
        }

      if (*first == '[')
        {
          const char *close = memchr (first, ']', end - first);
          const char *after;
          g_autofree char *header = NULL;

          if (close == NULL)
            return parse_error (error, config->filename, line_no,
                                _("the section header must end with “]”"));
          after = close + 1;
          while (after < end && is_blank (*after))
            after++;
          if (after < end && *after != '#' && *after != ';')
            return parse_error (error, config->filename, line_no,
                                _("unexpected text after the section header"));
          header = strip (first + 1, close);
          if (*header == '\0')
            return parse_error (error, config->filename, line_no,
                                _("the section header has no name"));
          section = open_section (config, kind, header, line_no);
          prop = NULL;
          continue;
        }

      {
        char *key;
        char *value;

        if (section == NULL)
          return parse_error (error, config->filename, line_no,
                              _("the file must start with a section header such as [default]"));
        if (!split_property (first, end, TRUE, &key, &value))
          {
            if (memchr (first, '=', end - first) != NULL)
              return parse_error (error, config->filename, line_no,
                                  _("the property has no name before “=”"));
            return parse_error (error, config->filename, line_no,
                                _("expected a property “key = value”"));
          }
        prop = set_property (section->props, key, value, line_no);
      }
    }

  return g_steal_pointer (&config);
}

DynoAwsConfig *
dyno_aws_config_load (const char       *path,
                      DynoAwsFileKind   kind,
                      GError          **error)
{
  g_autoptr(GError) local_error = NULL;
  g_autofree char *contents = NULL;
  gsize length = 0;

  g_return_val_if_fail (path != NULL, NULL);

  if (!g_file_get_contents (path, &contents, &length, &local_error))
    {
      if (g_error_matches (local_error, G_FILE_ERROR, G_FILE_ERROR_NOENT))
        {
          DynoAwsConfig *config = config_new (path);

          config->exists = FALSE;
          return config;
        }
      /* Translators: the file, then the system's error message. */
      g_set_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG, _("Could not read %s: %s"), path,
                   local_error->message);
      return NULL;
    }
  return dyno_aws_config_parse (contents, length, path, kind, error);
}

const char *
dyno_aws_config_get_filename (DynoAwsConfig *config)
{
  g_return_val_if_fail (config != NULL, NULL);
  return config->filename;
}

gboolean
dyno_aws_config_get_exists (DynoAwsConfig *config)
{
  g_return_val_if_fail (config != NULL, FALSE);
  return config->exists;
}

DynoAwsSection *
dyno_aws_config_get_section (DynoAwsConfig      *config,
                             DynoAwsSectionKind  kind,
                             const char         *name)
{
  g_return_val_if_fail (config != NULL, NULL);
  g_return_val_if_fail (name != NULL, NULL);
  return find_section (config, kind, FALSE, name);
}

GStrv
dyno_aws_config_dup_profile_names (DynoAwsConfig *config)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();

  g_return_val_if_fail (config != NULL, NULL);
  for (guint i = 0; i < config->sections->len; i++)
    {
      DynoAwsSection *section = g_ptr_array_index (config->sections, i);

      if (section->kind == DYNO_AWS_SECTION_PROFILE && !section->ignored)
        g_strv_builder_add (builder, section->name);
    }
  return g_strv_builder_end (builder);
}

const char *
dyno_aws_section_get_name (DynoAwsSection *section)
{
  g_return_val_if_fail (section != NULL, NULL);
  return section->name;
}

guint
dyno_aws_section_get_line (DynoAwsSection *section)
{
  g_return_val_if_fail (section != NULL, 0);
  return section->line;
}

const char *
dyno_aws_section_get (DynoAwsSection *section,
                      const char     *key)
{
  Property *prop;

  g_return_val_if_fail (section != NULL, NULL);
  prop = find_property (section->props, key);
  return prop != NULL ? prop->value : NULL;
}

guint
dyno_aws_section_get_key_line (DynoAwsSection *section,
                               const char     *key)
{
  Property *prop;

  g_return_val_if_fail (section != NULL, 0);
  prop = find_property (section->props, key);
  return prop != NULL ? prop->line : 0;
}

const char *
dyno_aws_section_get_sub (DynoAwsSection *section,
                          const char     *key,
                          const char     *sub_key)
{
  Property *prop;

  g_return_val_if_fail (section != NULL, NULL);
  prop = find_property (section->props, key);
  if (prop == NULL)
    return NULL;
  prop = find_property (prop->subs, sub_key);
  return prop != NULL ? prop->value : NULL;
}

guint
dyno_aws_section_get_sub_line (DynoAwsSection *section,
                               const char     *key,
                               const char     *sub_key)
{
  Property *prop;

  g_return_val_if_fail (section != NULL, 0);
  prop = find_property (section->props, key);
  if (prop == NULL)
    return 0;
  prop = find_property (prop->subs, sub_key);
  return prop != NULL ? prop->line : 0;
}
