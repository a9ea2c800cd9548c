/* daedalus
 * Copyright (C) 2026 The daedalus authors
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "gstdaedalusdecisioncache.h"

#include <glib.h>

#include <memory>
#include <mutex>
#include <utility>

namespace {

/* Bumped when the layout changes: older files are then replaced. */
constexpr int kFileFormat = 1;
constexpr const char *kHeaderGroup = "daedalus";

/* Load-modify-save by several elements of one process at once. */
std::mutex cache_mutex;

using KeyFile = std::unique_ptr<GKeyFile, decltype (&g_key_file_unref)>;

KeyFile
new_key_file ()
{
  return KeyFile (g_key_file_new (), g_key_file_unref);
}

std::string
group_name (const GstDaedalusDecisionKey &key)
{
  /* Keyfile group names may hold anything but brackets and newlines. */
  std::string name = key.element + " " + key.format + " " +
      std::to_string (key.bit_depth) + "-bit " + std::to_string (key.width) +
      "x" + std::to_string (key.height) + " " + key.cost_key;
  for (char &c : name) {
    if (c == '[' || c == ']' || c == '\n')
      c = '_';
  }
  return name;
}

std::string
get_string (GKeyFile *file, const std::string &group, const char *key)
{
  gchar *v = g_key_file_get_string (file, group.c_str (), key, nullptr);
  std::string s = v ? v : "";
  g_free (v);
  return s;
}

/* The file, when it is one of ours; otherwise null. */
KeyFile
load ()
{
  KeyFile file = new_key_file ();
  const std::string path = gst_daedalus_decision_cache_path ();
  if (!g_key_file_load_from_file (file.get (), path.c_str (),
          G_KEY_FILE_KEEP_COMMENTS, nullptr))
    return KeyFile (nullptr, g_key_file_unref);
  GError *error = nullptr;
  const int format =
      g_key_file_get_integer (file.get (), kHeaderGroup, "format", &error);
  if (error || format != kFileFormat) {
    g_clear_error (&error);
    return KeyFile (nullptr, g_key_file_unref);
  }
  return file;
}

/* The machine's fields, stored beside the figures and compared on lookup. */
std::vector<std::pair<const char *, std::string>>
machine_fields (const GstDaedalusDecisionKey &key)
{
  return {{"cpu", key.cpu}, {"threads", std::to_string (key.threads)},
      {"gpu", key.gpu}, {"library", key.library}};
}

bool
backend_from_name (const std::string &name, daedalus::BackendKind *kind)
{
  for (daedalus::BackendKind k : daedalus::kAllBackendKinds) {
    if (daedalus::backend_name (k) == name) {
      *kind = k;
      return true;
    }
  }
  return false;
}

} /* namespace */

std::string
gst_daedalus_decision_cache_path ()
{
  const gchar *xdg = g_getenv ("XDG_CACHE_HOME");
  gchar *dir = xdg && *xdg
      ? g_strdup (xdg)
      : g_build_filename (g_get_home_dir (), ".cache", nullptr);
  gchar *path = g_build_filename (dir, "daedalus", "backends.ini", nullptr);
  std::string s = path;
  g_free (path);
  g_free (dir);
  return s;
}

bool
gst_daedalus_decision_cache_lookup (const GstDaedalusDecisionKey &key,
    GstDaedalusDecision *decision)
{
  std::lock_guard<std::mutex> lock (cache_mutex);
  const KeyFile owner = load ();
  if (!owner)
    return false;
  GKeyFile *file = owner.get ();

  const std::string group = group_name (key);
  for (const auto &[name, value] : machine_fields (key)) {
    if (get_string (file, group, name) != value)
      return false;
  }
  GstDaedalusDecision d;
  if (!backend_from_name (get_string (file, group, "backend"), &d.backend))
    return false;
  d.gpu_share =
      g_key_file_get_double (file, group.c_str (), "gpu-share", nullptr);
  for (daedalus::BackendKind k : daedalus::kAllBackendKinds) {
    const std::string name (daedalus::backend_name (k));
    daedalus::BackendFigure f;
    f.kind = k;
    const std::string ms = get_string (file, group, (name + "-ms").c_str ());
    const std::string why_not =
        get_string (file, group, (name + "-not-measured").c_str ());
    if (ms.empty () && why_not.empty ())
      continue;
    if (!why_not.empty ())
      f.why_not = daedalus::Status::error (why_not);
    if (!ms.empty ())
      f.ms = g_ascii_strtod (ms.c_str (), nullptr);
    if (k == daedalus::BackendKind::Hybrid)
      f.gpu_share = d.gpu_share;
    d.figures.push_back (f);
  }
  *decision = d;
  return true;
}

daedalus::Status
gst_daedalus_decision_cache_store (const GstDaedalusDecisionKey &key,
    const GstDaedalusDecision &decision)
{
  std::lock_guard<std::mutex> lock (cache_mutex);
  KeyFile owner = load ();
  if (!owner) {
    owner = new_key_file ();
    g_key_file_set_integer (owner.get (), kHeaderGroup, "format", kFileFormat);
    g_key_file_set_comment (owner.get (), kHeaderGroup, nullptr,
        " Backends daedalus elements chose with backend=auto, and what the "
        "trial\n measured (ms per frame). Safe to delete: a missing entry "
        "only costs a\n trial at the next negotiation.",
        nullptr);
  }
  GKeyFile *file = owner.get ();

  const std::string group = group_name (key);
  g_key_file_remove_group (file, group.c_str (), nullptr);
  for (const auto &[name, value] : machine_fields (key))
    g_key_file_set_string (file, group.c_str (), name, value.c_str ());
  g_key_file_set_string (file, group.c_str (), "backend",
      std::string (daedalus::backend_name (decision.backend)).c_str ());
  g_key_file_set_double (file, group.c_str (), "gpu-share", decision.gpu_share);
  for (const daedalus::BackendFigure &f : decision.figures) {
    const std::string name (daedalus::backend_name (f.kind));
    if (f.measured ()) {
      /* Every digit, so that a hit re-derives exactly the choice the trial
       * made: a rounded figure turns a near-tie into a tie or flips it. */
      g_key_file_set_double (file, group.c_str (), (name + "-ms").c_str (),
          f.ms);
    } else {
      g_key_file_set_string (file, group.c_str (),
          (name + "-not-measured").c_str (), f.why_not.message ().c_str ());
    }
  }
  GDateTime *now = g_date_time_new_now_utc ();
  gchar *when = g_date_time_format_iso8601 (now);
  g_key_file_set_string (file, group.c_str (), "measured", when);
  g_free (when);
  g_date_time_unref (now);

  const std::string path = gst_daedalus_decision_cache_path ();
  gchar *dir = g_path_get_dirname (path.c_str ());
  const bool made = g_mkdir_with_parents (dir, 0755) == 0;
  g_free (dir);
  GError *err = nullptr;
  if (!made || !g_key_file_save_to_file (file, path.c_str (), &err)) {
    const daedalus::Status error = daedalus::Status::error (
        err ? err->message : "cannot create its folder");
    g_clear_error (&err);
    return error;
  }
  return daedalus::Status::ok ();
}
