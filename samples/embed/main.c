/* A small C application embedding kiln through its installed package (find_package(kiln)):
 * loads a module, calls the sample MLP's `predict` on a 2x4 batch, prints the 2x3 result.
 *
 *   kiln-embed-sample MODULE.kiln [DEVICE]
 *
 * Exit 0 on success; on any error, prints kiln's message and exits 1. */
#include <stdio.h>
#include <stdlib.h>

#include <kiln/kiln.h>

static int Fail(kiln_status_t* status, const char* what) {
  fprintf(stderr, "kiln-embed-sample: %s: %s\n", what, kiln_status_message(status));
  kiln_status_free(status);
  return 1;
}

int main(int argc, char** argv) {
  if (argc < 2 || argc > 3) {
    fprintf(stderr, "usage: kiln-embed-sample MODULE.kiln [DEVICE]\n");
    return 1;
  }
  const char* device_name = argc == 3 ? argv[2] : "cpu";
  kiln_instance_t* instance = NULL;
  kiln_device_t* device = NULL;
  kiln_module_t* module = NULL;
  kiln_session_t* session = NULL;
  kiln_buffer_view_t* input = NULL;
  kiln_status_t* status = NULL;
  int exit_code = 1;

  if ((status = kiln_instance_create(&instance))) return Fail(status, "creating the instance");
  if ((status = kiln_device_create(instance, device_name, &device))) {
    exit_code = Fail(status, "creating the device");
    goto done;
  }
  if ((status = kiln_module_load_file(instance, argv[1], &module))) {
    exit_code = Fail(status, "loading the module");
    goto done;
  }
  if ((status = kiln_session_create(device, module, &session))) {
    exit_code = Fail(status, "linking the module");
    goto done;
  }

  const float batch[2][4] = {{1, 0, 0, 0}, {0, 0, 0, 1}};
  const int64_t shape[2] = {2, 4};
  if ((status = kiln_buffer_view_create(device, KILN_ELEMENT_TYPE_F32, shape, 2, batch, sizeof(batch), &input))) {
    exit_code = Fail(status, "creating the input");
    goto done;
  }
  kiln_value_t args[1] = {{.kind = KILN_VALUE_BUFFER_VIEW, .buffer_view = input}};
  kiln_value_t results[1];
  size_t result_count = 0;
  if ((status = kiln_session_call(session, "predict", args, 1, results, 1, &result_count))) {
    exit_code = Fail(status, "calling predict");
    goto done;
  }
  kiln_buffer_view_t* output = results[0].buffer_view;
  const int64_t* dims = kiln_buffer_view_shape(output);
  float probabilities[2][3];
  if ((status = kiln_buffer_view_read(output, probabilities, sizeof(probabilities)))) {
    kiln_buffer_view_release(output);
    exit_code = Fail(status, "reading the result");
    goto done;
  }
  printf("predict: %lldx%lld f32\n", (long long)dims[0], (long long)dims[1]);
  for (int row = 0; row < 2; ++row) {
    printf("  [%.4f %.4f %.4f]\n", probabilities[row][0], probabilities[row][1], probabilities[row][2]);
  }
  kiln_buffer_view_release(output);
  exit_code = 0;

done:
  kiln_buffer_view_release(input);
  kiln_session_release(session);
  kiln_module_release(module);
  kiln_device_release(device);
  kiln_instance_release(instance);
  return exit_code;
}
