// A token bucket that limits how often a caller may act.
#pragma once

#include <chrono>
#include <mutex>

namespace limiter {

// TokenBucket hands out tokens at a fixed rate up to a burst.
class TokenBucket {
 public:
  TokenBucket(double rate, double burst) : rate_(rate), tokens_(burst), burst_(burst) {}

  // Take one token if there is one; report whether it was taken.
  bool TryTake() {
    std::lock_guard<std::mutex> lock(mu_);
    Refill();
    if (tokens_ < 1) {
      return false;
    }
    tokens_ -= 1;
    return true;
  }

  // Tokens left now.
  double Available() const;

 private:
  void Refill();

  std::mutex mu_;
  double rate_;
  double tokens_;
  double burst_;
};

}  // namespace limiter
