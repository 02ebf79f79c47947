#include "base/status.h"

namespace kiln {

std::string_view StatusCodeName(StatusCode code) {
  switch (code) {
    case StatusCode::kOk: return "OK";
    case StatusCode::kCancelled: return "CANCELLED";
    case StatusCode::kUnknown: return "UNKNOWN";
    case StatusCode::kInvalidArgument: return "INVALID_ARGUMENT";
    case StatusCode::kDeadlineExceeded: return "DEADLINE_EXCEEDED";
    case StatusCode::kNotFound: return "NOT_FOUND";
    case StatusCode::kAlreadyExists: return "ALREADY_EXISTS";
    case StatusCode::kPermissionDenied: return "PERMISSION_DENIED";
    case StatusCode::kResourceExhausted: return "RESOURCE_EXHAUSTED";
    case StatusCode::kFailedPrecondition: return "FAILED_PRECONDITION";
    case StatusCode::kAborted: return "ABORTED";
    case StatusCode::kOutOfRange: return "OUT_OF_RANGE";
    case StatusCode::kUnimplemented: return "UNIMPLEMENTED";
    case StatusCode::kInternal: return "INTERNAL";
    case StatusCode::kUnavailable: return "UNAVAILABLE";
    case StatusCode::kDataLoss: return "DATA_LOSS";
  }
  return "UNKNOWN_CODE";
}

Status::Status(StatusCode code, std::string message) {
  if (code == StatusCode::kOk) return;
  state_ = std::make_shared<const State>(State{code, std::move(message), {}});
}

const std::vector<std::string>& Status::context() const {
  static const std::vector<std::string> kEmpty;
  return state_ ? state_->context : kEmpty;
}

Status Status::WithContext(std::string text) const {
  if (ok()) return *this;
  State copy = *state_;
  copy.context.push_back(std::move(text));
  Status result;
  result.state_ = std::make_shared<const State>(std::move(copy));
  return result;
}

std::string Status::ToString() const {
  if (ok()) return "OK";
  std::string out(StatusCodeName(state_->code));
  out += ": ";
  out += state_->message;
  for (const std::string& entry : state_->context) {
    out += "; ";
    out += entry;
  }
  return out;
}

}  // namespace kiln
