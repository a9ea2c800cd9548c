// The plugin as gst-inspect-1.0 shows it: its elements, their metadata and
// pad templates, in a registry that holds nothing else.
#include <cstring>
#include <set>
#include <string>

#include "element_tests.h"

namespace daedalus::gsttest {
namespace {

constexpr const char* kElements[] = {"daedalusdeblock", "daedaluscdef",
                                     "daedalusmc"};

// The registry holds our elements and the core's built-in bin and pipeline,
// nothing from the system's plugin directories.
GST_START_TEST(test_registry_is_hermetic) {
  GList* features = gst_registry_get_feature_list(gst_registry_get(),
                                                  GST_TYPE_ELEMENT_FACTORY);
  std::set<std::string> ours;
  for (GList* l = features; l; l = l->next) {
    GstPluginFeature* feature = GST_PLUGIN_FEATURE(l->data);
    const std::string name = gst_plugin_feature_get_name(feature);
    const gchar* plugin = gst_plugin_feature_get_plugin_name(feature);
    if (name == "bin" || name == "pipeline") continue;
    fail_unless_equals_string(plugin, "daedalus");
    ours.insert(name);
  }
  gst_plugin_feature_list_free(features);
  fail_unless_equals_int(ours.size(), G_N_ELEMENTS(kElements));
  for (const char* name : kElements)
    fail_unless(ours.count(name), "%s not registered", name);
}
GST_END_TEST

GST_START_TEST(test_plugin_metadata) {
  GstPlugin* plugin = gst_registry_find_plugin(gst_registry_get(), "daedalus");
  fail_unless(plugin != nullptr);
  fail_unless_equals_string(gst_plugin_get_license(plugin), "LGPL");
  fail_unless(std::strlen(gst_plugin_get_description(plugin)) > 40);
  fail_unless(std::strlen(gst_plugin_get_version(plugin)) > 0);
  // gst-inspect-1.0's "Source module", "Binary package" and "Origin URL".
  fail_unless_equals_string(gst_plugin_get_source(plugin), "daedalus");
  fail_unless(std::strlen(gst_plugin_get_package(plugin)) > 0);
  const std::string origin = gst_plugin_get_origin(plugin);
  fail_unless(origin.find("://") != std::string::npos, "origin: %s",
              origin.c_str());
  gst_object_unref(plugin);
}
GST_END_TEST

GST_START_TEST(test_element_metadata) {
  GstElementFactory* factory = gst_element_factory_find(kElements[__i__]);
  fail_unless(factory != nullptr);
  fail_unless_equals_string(
      gst_element_factory_get_metadata(factory, GST_ELEMENT_METADATA_KLASS),
      "Filter/Effect/Video");
  // The documentation gst-inspect-1.0 names is the installed spec.
  const std::string doc =
      gst_element_factory_get_metadata(factory, GST_ELEMENT_METADATA_DOC_URI);
  fail_unless(g_str_has_prefix(doc.c_str(), "file:///") &&
                  g_str_has_suffix(doc.c_str(), "/spec.md"),
              "%s: doc-uri %s", kElements[__i__], doc.c_str());
  for (const char* key :
       {GST_ELEMENT_METADATA_LONGNAME, GST_ELEMENT_METADATA_DESCRIPTION,
        GST_ELEMENT_METADATA_AUTHOR}) {
    const gchar* value = gst_element_factory_get_metadata(factory, key);
    fail_unless(value && std::strlen(value) > 10, "%s: %s is \"%s\"",
                kElements[__i__], key, value);
  }
  fail_unless_equals_int(
      gst_plugin_feature_get_rank(GST_PLUGIN_FEATURE(factory)), GST_RANK_NONE);

  // One sink and one src pad, always there, taking every format at any
  // size; interlaced video but in daedalusmc, which shifts across fields.
  fail_unless_equals_int(gst_element_factory_get_num_pad_templates(factory), 2);
  const std::string video =
      "format=(string){ I420, YV12, Y42B, Y444, NV12, NV21, GRAY8, "
      "I420_10LE, I422_10LE, Y444_10LE, P010_10LE }, "
      "width=(int)[1, MAX], height=(int)[1, MAX], "
      "framerate=(fraction)[0/1, MAX], interlace-mode=(string)";
  const std::string progressive = "video/x-raw, " + video + "progressive";
  const std::string interlaced =
      "video/x-raw, " + video + "{ progressive, interleaved, mixed }; " +
      "video/x-raw(format:Interlaced), " + video + "alternate";
  GstCaps* want = gst_caps_from_string(
      (std::strcmp(kElements[__i__], "daedalusmc") == 0 ? progressive
                                                        : interlaced)
          .c_str());
  for (const GList* l = gst_element_factory_get_static_pad_templates(factory);
       l; l = l->next) {
    auto* tmpl = static_cast<GstStaticPadTemplate*>(l->data);
    fail_unless_equals_int(tmpl->presence, GST_PAD_ALWAYS);
    GstCaps* caps = gst_static_caps_get(&tmpl->static_caps);
    gchar* text = gst_caps_to_string(caps);
    fail_unless(gst_caps_is_equal(caps, want), "%s %s caps: %s",
                kElements[__i__], tmpl->name_template, text);
    g_free(text);
    gst_caps_unref(caps);
  }
  gst_caps_unref(want);
  gst_object_unref(factory);
}
GST_END_TEST

Suite* plugin_suite() {
  Suite* s = suite_create("daedalus");
  TCase* tc = tcase_create("plugin");
  suite_add_tcase(s, tc);
  tcase_add_test(tc, test_registry_is_hermetic);
  tcase_add_test(tc, test_plugin_metadata);
  tcase_add_loop_test(tc, test_element_metadata, 0, G_N_ELEMENTS(kElements));
  return s;
}

}  // namespace
}  // namespace daedalus::gsttest

int main(int argc, char** argv) {
  return daedalus::gsttest::run_suite(argc, argv,
                                      daedalus::gsttest::plugin_suite);
}
