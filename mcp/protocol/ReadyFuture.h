#pragma once

#include <QFuture>
#include <QPromise>

namespace sandbox::mcp {

/// A future that already holds `value`: the answer of a request served at once, where others are served later.
template <typename T>
QFuture<T> readyFuture(T value)
{
    QPromise<T> promise;
    promise.start();
    promise.addResult(std::move(value));
    promise.finish();
    return promise.future();
}

} // namespace sandbox::mcp
