// The HAL's public header: everything a user of devices, buffers and queues needs.
#pragma once

#include "hal/allocator.h"
#include "hal/buffer.h"
#include "hal/buffer_view.h"
#include "hal/command_buffer.h"
#include "hal/device.h"
#include "hal/driver.h"
#include "hal/element_type.h"
#include "hal/executable.h"
#include "hal/semaphore.h"
