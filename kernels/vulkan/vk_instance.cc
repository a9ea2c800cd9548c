#include "vk_instance.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>

#include "vk_status.h"

namespace daedalus::vk {
namespace {

constexpr const char* kValidationLayer = "VK_LAYER_KHRONOS_validation";

std::mutex& messages_mutex() {
  static std::mutex m;
  return m;
}

std::vector<std::string>& messages() {
  static std::vector<std::string> m;
  return m;
}

VKAPI_ATTR VkBool32 VKAPI_CALL
on_debug_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                 VkDebugUtilsMessageTypeFlagsEXT,
                 const VkDebugUtilsMessengerCallbackDataEXT* data, void*) {
  const char* level = severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT
                          ? "error"
                          : "warning";
  std::string text = std::string("Vulkan ") + level + ": " +
                     (data && data->pMessage ? data->pMessage : "(no text)");
  std::fprintf(stderr, "daedalus: %s\n", text.c_str());
  std::lock_guard lock(messages_mutex());
  messages().push_back(std::move(text));
  return VK_FALSE;
}

bool has_layer(const char* name) {
  uint32_t count = 0;
  if (vkEnumerateInstanceLayerProperties(&count, nullptr) != VK_SUCCESS)
    return false;
  std::vector<VkLayerProperties> layers(count);
  if (vkEnumerateInstanceLayerProperties(&count, layers.data()) < 0)
    return false;
  for (const VkLayerProperties& l : layers)
    if (std::strcmp(l.layerName, name) == 0) return true;
  return false;
}

bool has_extension(const char* layer, const char* name) {
  uint32_t count = 0;
  if (vkEnumerateInstanceExtensionProperties(layer, &count, nullptr) !=
      VK_SUCCESS)
    return false;
  std::vector<VkExtensionProperties> exts(count);
  if (vkEnumerateInstanceExtensionProperties(layer, &count, exts.data()) < 0)
    return false;
  for (const VkExtensionProperties& e : exts)
    if (std::strcmp(e.extensionName, name) == 0) return true;
  return false;
}

// The compute family to use: one with timestamps first, then one without
// graphics (a dedicated compute queue is less contended).
void pick_queue_family(VkPhysicalDevice device, PhysicalDevice* out) {
  uint32_t count = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(device, &count, nullptr);
  std::vector<VkQueueFamilyProperties> families(count);
  vkGetPhysicalDeviceQueueFamilyProperties(device, &count, families.data());
  int best_score = -1;
  for (uint32_t i = 0; i < count; i++) {
    const VkQueueFamilyProperties& f = families[i];
    if (!(f.queueFlags & VK_QUEUE_COMPUTE_BIT) || f.queueCount == 0) continue;
    const int score = (f.timestampValidBits ? 2 : 0) +
                      (f.queueFlags & VK_QUEUE_GRAPHICS_BIT ? 0 : 1);
    if (score > best_score) {
      best_score = score;
      out->queue_family = i;
      out->timestamp_bits = f.timestampValidBits;
    }
  }
  out->facts.has_compute_queue = best_score >= 0;
}

}  // namespace

bool validation_requested_by_env() {
  const char* env = std::getenv("DAEDALUS_VULKAN_VALIDATION");
  return env && std::strcmp(env, "1") == 0;
}

std::vector<std::string> debug_messages() {
  std::lock_guard lock(messages_mutex());
  return messages();
}

void clear_debug_messages() {
  std::lock_guard lock(messages_mutex());
  messages().clear();
}

Result<std::unique_ptr<Instance>> Instance::create(bool validation) {
  std::unique_ptr<Instance> instance(new Instance);

  std::vector<const char*> layers, extensions;
  VkDebugUtilsMessengerCreateInfoEXT messenger_info{};
  messenger_info.sType =
      VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT;
  messenger_info.messageSeverity =
      VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
      VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
  messenger_info.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                               VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                               VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
  messenger_info.pfnUserCallback = on_debug_message;

  const VkValidationFeatureEnableEXT sync_validation =
      VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT;
  VkValidationFeaturesEXT features{};
  features.sType = VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT;
  features.enabledValidationFeatureCount = 1;
  features.pEnabledValidationFeatures = &sync_validation;

  const void* next = nullptr;
  if (validation) {
    if (!has_layer(kValidationLayer))
      return Status::error(
          "DAEDALUS_VULKAN_VALIDATION=1 asks for the Vulkan validation layer, "
          "but VK_LAYER_KHRONOS_validation is not installed "
          "(Debian: vulkan-validationlayers)");
    if (!has_extension(nullptr, VK_EXT_DEBUG_UTILS_EXTENSION_NAME) &&
        !has_extension(kValidationLayer, VK_EXT_DEBUG_UTILS_EXTENSION_NAME))
      return Status::error(
          "the Vulkan validation layer is installed but "
          "offers no VK_EXT_debug_utils to report through");
    layers.push_back(kValidationLayer);
    extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
    // Chained into the instance info, the messenger also hears about
    // vkCreateInstance and vkDestroyInstance themselves.
    next = &messenger_info;
    if (has_extension(kValidationLayer,
                      VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME)) {
      extensions.push_back(VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME);
      features.pNext = next;
      next = &features;
    }
  }

  VkApplicationInfo app{};
  app.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO;
  app.pApplicationName = "daedalus";
  app.pEngineName = "daedalus";
  app.apiVersion = kMinApiVersion;

  VkInstanceCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
  info.pNext = next;
  info.pApplicationInfo = &app;
  info.enabledLayerCount = uint32_t(layers.size());
  info.ppEnabledLayerNames = layers.data();
  info.enabledExtensionCount = uint32_t(extensions.size());
  info.ppEnabledExtensionNames = extensions.data();
  const VkResult r =
      vkCreateInstance(&info, nullptr, instance->instance_.replace());
  if (r == VK_ERROR_INCOMPATIBLE_DRIVER)
    return Status::error(
        "no Vulkan driver is installed (or none supports "
        "Vulkan 1.1)");
  DAEDALUS_TRY(check(r, "vkCreateInstance"));

  if (validation) {
    auto create_messenger =
        reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
            vkGetInstanceProcAddr(instance->get(),
                                  "vkCreateDebugUtilsMessengerEXT"));
    instance->destroy_messenger_ =
        reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
            vkGetInstanceProcAddr(instance->get(),
                                  "vkDestroyDebugUtilsMessengerEXT"));
    if (!create_messenger || !instance->destroy_messenger_)
      return Status::error(
          "the Vulkan loader has no vkCreateDebugUtilsMessengerEXT");
    DAEDALUS_VK_TRY(create_messenger(instance->get(), &messenger_info, nullptr,
                                     &instance->messenger_));
  }
  return instance;
}

Instance::~Instance() {
  if (messenger_ != VK_NULL_HANDLE)
    destroy_messenger_(instance_.get(), messenger_, nullptr);
}

Result<std::vector<PhysicalDevice>> enumerate_devices(VkInstance instance) {
  uint32_t count = 0;
  DAEDALUS_VK_TRY(vkEnumeratePhysicalDevices(instance, &count, nullptr));
  std::vector<VkPhysicalDevice> handles(count);
  DAEDALUS_VK_TRY(vkEnumeratePhysicalDevices(instance, &count, handles.data()));
  std::vector<PhysicalDevice> devices;
  for (uint32_t i = 0; i < count; i++) {
    PhysicalDevice d;
    d.handle = handles[i];
    vkGetPhysicalDeviceProperties(d.handle, &d.properties);
    const VkPhysicalDeviceLimits& l = d.properties.limits;
    d.facts.name = d.properties.deviceName;
    d.facts.type = d.properties.deviceType;
    d.facts.api_version = d.properties.apiVersion;
    d.facts.max_shared_memory = l.maxComputeSharedMemorySize;
    d.facts.max_invocations = l.maxComputeWorkGroupInvocations;
    d.facts.max_group_size[0] = l.maxComputeWorkGroupSize[0];
    d.facts.max_group_size[1] = l.maxComputeWorkGroupSize[1];
    d.facts.max_push_constants = l.maxPushConstantsSize;
    pick_queue_family(d.handle, &d);
    devices.push_back(std::move(d));
  }
  return devices;
}

int vulkan_device_count() {
  Result<std::unique_ptr<Instance>> instance = Instance::create(false);
  if (!instance) return 0;
  uint32_t count = 0;
  if (vkEnumeratePhysicalDevices(instance.value()->get(), &count, nullptr) < 0)
    return 0;
  return int(count);
}

}  // namespace daedalus::vk
