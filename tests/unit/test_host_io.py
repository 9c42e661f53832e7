"""Host I/O compiled through `lower-to-llvm`: infeed, outfeed, send/recv, tokens.

Every program is a function of one module compiled once. Values go in through
`runtime.host_io` queues before the call and come out after it; token
parameters take None (or `runtime.TOKEN`) and token results come back as
`runtime.TOKEN`. A failing host op (empty infeed, wrong item) is a
`HostIOError` naming the op and its line, after which the runtime is usable again.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest

from runtime import Executable
from runtime import host_io as runtime
from xla_tools import compile

MODULE = """
func.func @feed_add(%x: tensor<2xf32>, %t: !xla.token) -> (tensor<2xf32>, !xla.token) {
  %0:2 = "xla.infeed"(%t) : (!xla.token) -> (tensor<2xf32>, !xla.token)
  %1 = xla.add %0#0, %x : tensor<2xf32>
  %2 = "xla.outfeed"(%1, %0#1) : (tensor<2xf32>, !xla.token) -> !xla.token
  func.return %1, %2 : tensor<2xf32>, !xla.token
}

func.func @ordered() -> tensor<i32> {
  %t0 = xla.create_token : !xla.token
  %a:2 = "xla.infeed"(%t0) : (!xla.token) -> (tensor<i32>, !xla.token)
  %b:2 = "xla.infeed"(%a#1) : (!xla.token) -> (tensor<i32>, !xla.token)
  %d = xla.subtract %a#0, %b#0 : tensor<i32>
  %t1 = "xla.outfeed"(%d, %b#1) : (tensor<i32>, !xla.token) -> !xla.token
  %t2 = xla.after_all %t1, %a#1 : !xla.token
  %t3 = "xla.outfeed"(%b#0, %a#0, %t2) : (tensor<i32>, tensor<i32>, !xla.token) -> !xla.token
  %c:2 = "xla.infeed"(%t3) : (!xla.token) -> (tensor<i32>, !xla.token)
  func.return %c#0 : tensor<i32>
}

func.func @several(%t: !xla.token) -> (tensor<2x3xf32>, tensor<3xui8>, tensor<2xi1>) {
  %0:4 = "xla.infeed"(%t) {layout = [[1, 0], [0], [0]]} : (!xla.token) -> (tensor<2x3xf32>, tensor<3xui8>, tensor<2xi1>, !xla.token)
  %1 = "xla.infeed"(%0#3) : (!xla.token) -> !xla.token
  func.return %0#0, %0#1, %0#2 : tensor<2x3xf32>, tensor<3xui8>, tensor<2xi1>
}

func.func @loop(%n: tensor<i32>) -> tensor<f32> {
  %zero = xla.constant dense<0> : tensor<i32>
  %one = xla.constant dense<1> : tensor<i32>
  %fzero = xla.constant dense<0.0> : tensor<f32>
  %t = xla.create_token : !xla.token
  %r:3 = xla.while(%i = %zero, %s = %fzero, %tok = %t) : tensor<i32>, tensor<f32>, !xla.token
  cond {
    %c = xla.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
    xla.return %c : tensor<i1>
  } do {
    %v:2 = "xla.infeed"(%tok) : (!xla.token) -> (tensor<f32>, !xla.token)
    %s2 = xla.add %s, %v#0 : tensor<f32>
    %t2 = "xla.outfeed"(%s2, %v#1) : (tensor<f32>, !xla.token) -> !xla.token
    %i2 = xla.add %i, %one : tensor<i32>
    xla.return %i2, %s2, %t2 : tensor<i32>, tensor<f32>, !xla.token
  }
  func.return %r#1 : tensor<f32>
}

func.func @until_negative(%x: tensor<i32>) -> tensor<i32> {
  %zero = xla.constant dense<0> : tensor<i32>
  %t = xla.create_token : !xla.token
  %r:3 = xla.while(%v = %x, %n = %zero, %tok = %t) : tensor<i32>, tensor<i32>, !xla.token
  cond {
    %c = xla.compare GE, %v, %zero : (tensor<i32>, tensor<i32>) -> tensor<i1>
    xla.return %c : tensor<i1>
  } do {
    %w:2 = "xla.infeed"(%tok) : (!xla.token) -> (tensor<i32>, !xla.token)
    %n2 = xla.add %n, %v : tensor<i32>
    xla.return %w#0, %n2, %w#1 : tensor<i32>, tensor<i32>, !xla.token
  }
  func.return %r#1 : tensor<i32>
}

func.func @host_channels(%x: tensor<3xi64>, %t: !xla.token) -> (tensor<3xi64>, !xla.token) {
  %t1 = "xla.send"(%x, %t) {channel_handle = #xla.channel_handle<handle = 1, type = 2>, is_host_transfer = true} : (tensor<3xi64>, !xla.token) -> !xla.token
  %r:2 = "xla.recv"(%t1) {channel_handle = #xla.channel_handle<handle = 2, type = 3>, is_host_transfer = true} : (!xla.token) -> (tensor<3xi64>, !xla.token)
  %y = xla.multiply %r#0, %x : tensor<3xi64>
  func.return %y, %r#1 : tensor<3xi64>, !xla.token
}

func.func @device_channel(%x: tensor<2x2xf64>) -> tensor<2x2xf64> {
  %t = xla.create_token : !xla.token
  %t1 = "xla.send"(%x, %t) {channel_handle = #xla.channel_handle<handle = 5, type = 1>} : (tensor<2x2xf64>, !xla.token) -> !xla.token
  %r:2 = "xla.recv"(%t1) {channel_handle = #xla.channel_handle<handle = 5, type = 1>} : (!xla.token) -> (tensor<2x2xf64>, !xla.token)
  %y = xla.add %r#0, %r#0 : tensor<2x2xf64>
  func.return %y : tensor<2x2xf64>
}

func.func @recv_first(%x: tensor<2xf32>) -> tensor<2xf32> {
  %t = xla.create_token : !xla.token
  %r:2 = "xla.recv"(%t) {channel_handle = #xla.channel_handle<handle = 6, type = 1>} : (!xla.token) -> (tensor<2xf32>, !xla.token)
  %t1 = "xla.send"(%x, %r#1) {channel_handle = #xla.channel_handle<handle = 6, type = 1>} : (tensor<2xf32>, !xla.token) -> !xla.token
  func.return %r#0 : tensor<2xf32>
}

func.func @tupled(%p: tuple<tensor<2xf32>, !xla.token>) -> tuple<tensor<2xf32>, !xla.token> {
  %x = xla.get_tuple_element %p[0] : (tuple<tensor<2xf32>, !xla.token>) -> tensor<2xf32>
  %t = xla.get_tuple_element %p[1] : (tuple<tensor<2xf32>, !xla.token>) -> !xla.token
  %v:2 = "xla.infeed"(%t) : (!xla.token) -> (tensor<2xf32>, !xla.token)
  %y = xla.multiply %x, %v#0 : tensor<2xf32>
  %r = xla.tuple %y, %v#1 : tuple<tensor<2xf32>, !xla.token>
  func.return %r : tuple<tensor<2xf32>, !xla.token>
}

func.func @read_one(%t: !xla.token) -> (tensor<i32>, !xla.token) {
  %v:2 = "xla.infeed"(%t) : (!xla.token) -> (tensor<i32>, !xla.token)
  %w = xla.add %v#0, %v#0 : tensor<i32>
  %t2 = "xla.outfeed"(%w, %v#1) : (tensor<i32>, !xla.token) -> !xla.token
  func.return %v#0, %t2 : tensor<i32>, !xla.token
}

func.func @through_calls(%p: tensor<i1>, %n: tensor<i32>) -> tensor<i32> {
  %zero = xla.constant dense<0> : tensor<i32>
  %one = xla.constant dense<1> : tensor<i32>
  %t = xla.create_token : !xla.token
  %r:3 = xla.while(%i = %zero, %s = %zero, %tok = %t) : tensor<i32>, tensor<i32>, !xla.token
  cond {
    %c = xla.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
    xla.return %c : tensor<i1>
  } do {
    %v, %t2 = xla.call @read_one(%tok) : (!xla.token) -> (tensor<i32>, !xla.token)
    %s2 = xla.add %s, %v : tensor<i32>
    %i2 = xla.add %i, %one : tensor<i32>
    xla.return %i2, %s2, %t2 : tensor<i32>, tensor<i32>, !xla.token
  }
  %t3 = "xla.if"(%p) ({
    %t4 = "xla.outfeed"(%r#1, %r#2) : (tensor<i32>, !xla.token) -> !xla.token
    xla.return %t4 : !xla.token
  }, {
    xla.return %r#2 : !xla.token
  }) : (tensor<i1>) -> !xla.token
  %t5 = "xla.outfeed"(%n, %t3) : (tensor<i32>, !xla.token) -> !xla.token
  func.return %r#1 : tensor<i32>
}
"""


def _fn(name: str) -> Executable:
    f = compile(MODULE, entry=name)
    assert isinstance(f, Executable)
    return f


@pytest.fixture(autouse=True)
def clean_queues() -> Iterator[None]:
    runtime.reset()
    yield
    runtime.reset()


def _drain() -> list[object]:
    items = []
    while len(runtime.outfeed):
        items.append(runtime.outfeed.pop())
    return items


def test_infeed_before_outfeed_after() -> None:
    runtime.infeed.push(np.array([1.5, -2.0], np.float32))
    y, token = _fn("feed_add")(np.array([10.0, 20.0], np.float32), None)
    np.testing.assert_array_equal(y, np.array([11.5, 18.0], np.float32))
    assert token is runtime.TOKEN
    out = runtime.outfeed.pop()
    np.testing.assert_array_equal(out, y)
    assert out.dtype == np.float32
    assert len(runtime.outfeed) == 0 and len(runtime.infeed) == 0


def test_token_argument_takes_none_or_token_only() -> None:
    f = _fn("feed_add")
    runtime.transfer_to_infeed(np.zeros(2, np.float32))
    f(np.ones(2, np.float32), runtime.TOKEN)
    np.testing.assert_array_equal(runtime.transfer_from_outfeed(), np.ones(2, np.float32))
    with pytest.raises(ValueError, match="token takes None or runtime.TOKEN"):
        f(np.ones(2, np.float32), np.zeros(2, np.float32))


def test_token_order() -> None:
    for v in (7, 3, 100):
        runtime.infeed.push(np.int32(v))
    assert int(_fn("ordered")()) == 100
    first, second = _drain()
    assert int(first) == 7 - 3  # a - b: the first infeed is a
    b, a = second
    assert (int(b), int(a)) == (3, 7)


def test_infeed_of_several_arrays_and_empty_shape() -> None:
    m = np.arange(6, dtype=np.float32).reshape(2, 3)
    u = np.array([0, 200, 255], np.uint8)
    p = np.array([True, False])
    runtime.infeed.push(m, u, p)
    runtime.infeed.push(np.int32(1))  # not read: the second infeed has no data
    got = _fn("several")(None)
    for g, want in zip(got, (m, u, p)):
        np.testing.assert_array_equal(g, want)
        assert g.dtype == want.dtype
    assert len(runtime.infeed) == 1


def test_infeed_inside_while() -> None:
    values = [1.0, 2.5, -4.0, 8.0]
    for v in values:
        runtime.infeed.push(np.float32(v))
    total = _fn("loop")(np.int32(len(values)))
    assert float(total) == sum(values)
    assert [float(x) for x in _drain()] == list(np.cumsum(values))


def test_send_recv_host_round_trip() -> None:
    x = np.array([1, -2, 3], np.int64)
    runtime.recv_queue(2).push(np.array([10, 10, -1], np.int64))
    y, _ = _fn("host_channels")(x, None)
    np.testing.assert_array_equal(y, [10, -20, -3])
    np.testing.assert_array_equal(runtime.send_queue(1).pop(), x)
    assert len(runtime.send_queue(2)) == 0 and len(runtime.recv_queue(1)) == 0


def test_device_to_device_send_recv() -> None:
    x = np.arange(4, dtype=np.float64).reshape(2, 2)
    np.testing.assert_array_equal(_fn("device_channel")(x), 2 * x)
    assert len(runtime.channel_queue(5)) == 0


def test_recv_before_send_is_an_error() -> None:
    with pytest.raises(runtime.HostIOError, match=r"xla.recv at <string>:\d+:\d+: device channel 6 is empty.*no xla.send on channel 6"):
        _fn("recv_first")(np.ones(2, np.float32))


def test_tokens_in_tuples() -> None:
    runtime.infeed.push(np.array([2.0, 3.0], np.float32))
    y, token = _fn("tupled")((np.array([4.0, 5.0], np.float32), None))
    np.testing.assert_array_equal(y, [8.0, 15.0])
    assert token is runtime.TOKEN


def test_tokens_through_call_while_and_if() -> None:
    for v in (5, 6, 7):
        runtime.infeed.push(np.int32(v))
    f = _fn("through_calls")
    assert int(f(np.bool_(True), np.int32(3))) == 18
    assert [int(x) for x in _drain()] == [10, 12, 14, 18, 3]
    runtime.infeed.push(np.int32(1))
    assert int(f(np.bool_(False), np.int32(1))) == 1
    assert [int(x) for x in _drain()] == [2, 1]


def test_empty_infeed_is_an_error_and_the_runtime_recovers() -> None:
    f = _fn("feed_add")
    with pytest.raises(runtime.HostIOError, match=r"xla.infeed at <string>:3:3: infeed is empty: the op reads \(tensor<2xf32>\)"):
        f(np.ones(2, np.float32), None)
    assert len(runtime.outfeed) == 0  # later host ops of the failed run did nothing
    runtime.infeed.push(np.ones(2, np.float32))
    y, _ = f(np.ones(2, np.float32), None)
    np.testing.assert_array_equal(y, [2.0, 2.0])


def test_empty_infeed_in_a_data_driven_loop_ends_the_loop() -> None:
    for v in (3, 2):  # no negative value: on zeros the loop would never end
        runtime.infeed.push(np.int32(v))
    with pytest.raises(runtime.HostIOError, match="infeed is empty"):
        _fn("until_negative")(np.int32(1))
    runtime.infeed.push(np.int32(4))
    runtime.infeed.push(np.int32(-1))
    assert int(_fn("until_negative")(np.int32(1))) == 5


@pytest.mark.parametrize(
    "item",
    [
        pytest.param((np.zeros(3, np.float32),), id="shape"),
        pytest.param((np.zeros(2, np.float64),), id="dtype"),
        pytest.param((np.zeros(2, np.float32), np.zeros(2, np.float32)), id="count"),
    ],
)
def test_mismatched_infeed_item(item: tuple[np.ndarray, ...]) -> None:
    runtime.infeed.push(*item)
    with pytest.raises(runtime.HostIOError, match=r"infeed item \(.*\) does not match the op's types \(tensor<2xf32>\)"):
        _fn("feed_add")(np.ones(2, np.float32), None)


def test_pop_of_an_empty_queue() -> None:
    with pytest.raises(IndexError, match="outfeed is empty"):
        runtime.outfeed.pop()
