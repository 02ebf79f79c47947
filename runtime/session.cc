#include "runtime/session.h"

#include "drivers/builtin_drivers.h"

namespace kiln::runtime {

Session::~Session() {
  context_.reset();  // before the native module it resolved against
}

StatusOr<std::unique_ptr<Session>> Session::Create(std::string_view device_name, Ref<vm::Module> module,
                                                   std::span<vm::NativeModule* const> extra_natives,
                                                   const SessionOptions& options) {
  KILN_ASSIGN_OR_RETURN(Ref<hal::Device> device, BuiltinDriverRegistry().CreateDevice(device_name),
                        "while creating device '", device_name, "'");
  return Create(std::move(device), std::move(module), extra_natives, options);
}

StatusOr<std::unique_ptr<Session>> Session::Create(Ref<hal::Device> device, Ref<vm::Module> module,
                                                   std::span<vm::NativeModule* const> extra_natives,
                                                   const SessionOptions& options) {
  std::unique_ptr<Session> session(new Session());
  session->device_ = std::move(device);
  session->hal_module_ = std::make_unique<hal::HalModule>(session->device_);
  session->parameters_module_ =
      std::make_unique<ParametersModule>(session->device_, options.parameters, options.parameter_mode);
  session->module_ = std::move(module);
  std::vector<vm::NativeModule*> natives = {session->hal_module_.get(), session->parameters_module_.get()};
  natives.insert(natives.end(), extra_natives.begin(), extra_natives.end());
  KILN_ASSIGN_OR_RETURN(session->context_, vm::Context::Create(session->module_, natives),
                        "while linking module '", session->module_->name(), "'");
  return session;
}

StatusOr<const vm::Signature*> Session::FunctionSignature(std::string_view name) const {
  KILN_ASSIGN_OR_RETURN(uint32_t ordinal, module_->LookupExport(name));
  return &module_->functions()[ordinal].signature;
}

StatusOr<std::vector<vm::Value>> Session::Call(std::string_view name, std::span<const vm::Value> args) {
  // The interpreter checks the arguments against the signature.
  KILN_ASSIGN_OR_RETURN(std::vector<vm::Value> results, context_->Invoke(name, args), "while calling '", name, "'");
  return results;
}

}  // namespace kiln::runtime
