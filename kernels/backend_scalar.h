// The scalar backend: the reference kernels on the calling thread.
#pragma once

#include <memory>

#include "daedalus/backend.h"

namespace daedalus {

std::unique_ptr<Backend> create_scalar_backend();

}  // namespace daedalus
