// A QEMU TCG plugin that counts the guest instructions a program executes
// and prints the total at exit ("insn-count: N"). Each translation block
// adds its instruction count to one counter inline each time it runs, so
// the count is exact for a single-threaded guest (the benchmarks it serves
// run one thread). Built against the qemu-plugin.h of the QEMU the count
// runs under (count.sh fetches it from Debian's qemu source package).
#include <inttypes.h>
#include <stdio.h>

#include <qemu-plugin.h>

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

static uint64_t executed;

static void on_translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb) {
  (void)id;
  qemu_plugin_register_vcpu_tb_exec_inline(
      tb, QEMU_PLUGIN_INLINE_ADD_U64, &executed, qemu_plugin_tb_n_insns(tb));
}

static void on_exit(qemu_plugin_id_t id, void *data) {
  (void)id;
  (void)data;
  char line[64];
  snprintf(line, sizeof line, "insn-count: %" PRIu64 "\n", executed);
  qemu_plugin_outs(line);
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
                                           const qemu_info_t *info, int argc,
                                           char **argv) {
  (void)info;
  (void)argc;
  (void)argv;
  qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
  qemu_plugin_register_atexit_cb(id, on_exit, NULL);
  return 0;
}
