"""The floor under a stream's message: what one small write to one TCP connection on the
loopback costs the process that writes it, and the process that reads it, with nothing of
the service in between.

    .venv/bin/python -m tests.bench.socket_floor [--streams 1000] [--messages 100000]
        [--size 220] [--moves 0] [--fanout 50]

A reader process holds ``--streams`` connections and drains them (one ``selectors`` loop,
no asyncio); this process writes ``--messages`` messages of ``--size`` bytes (a held die's
event is about 220), one connection after the other, as a move's fan-out writes once to each
stream that follows the game. With ``--moves N`` it writes in bursts of ``--fanout`` (a
move to the streams of one game), N bursts a second, so that the reader sleeps between
them as a crowd of spectators does; without, as fast as it can. It prints the processor
time per write on each side (user and system), which is what the service's event loop pays
per stream and move below its own code: the write's system call, which on the loopback also
carries the receiving side's work and wakes the reader, and what it costs the reader (on a
real network, another machine's).
"""

import argparse
import os
import resource
import selectors
import socket
import subprocess
import sys
import time


def reader(port: int, streams: int) -> None:
    """Accepts ``streams`` connections and drains them until they all close; prints its
    processor time."""
    listening = socket.create_server(("127.0.0.1", port), backlog=streams)
    print("ready", flush=True)
    chosen = selectors.DefaultSelector()
    for _ in range(streams):
        connection, _ = listening.accept()
        connection.setblocking(False)
        chosen.register(connection, selectors.EVENT_READ)
    start = time.process_time()
    open_ = streams
    while open_:
        for key, _ in chosen.select():
            data = key.fileobj.recv(65536)  # type: ignore[union-attr]
            if not data:
                chosen.unregister(key.fileobj)
                key.fileobj.close()
                open_ -= 1
    print(f"{time.process_time() - start:.6f}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--streams", type=int, default=1000)
    parser.add_argument("--messages", type=int, default=100_000)
    parser.add_argument("--size", type=int, default=220)
    parser.add_argument("--moves", type=float, default=0.0, help="bursts a second (0: no pause)")
    parser.add_argument("--fanout", type=int, default=50, help="writes a burst")
    parser.add_argument("--port", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--reader", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.reader:
        reader(args.port, args.streams)
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 2 * args.streams + 64)), hard))
    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
    probe.close()
    other = subprocess.Popen(
        [sys.executable, "-m", "tests.bench.socket_floor", "--reader", "--port", str(port),
         "--streams", str(args.streams)],
        stdout=subprocess.PIPE, text=True,
    )
    assert other.stdout is not None
    assert other.stdout.readline().strip() == "ready"
    connections = [socket.create_connection(("127.0.0.1", port)) for _ in range(args.streams)]
    for connection in connections:  # as the server's are (uvicorn sets it on each)
        connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    message = b"x" * args.size
    pause = 1 / args.moves if args.moves else 0.0
    before = os.times()
    for n in range(args.messages):
        connections[n % args.streams].send(message)
        if pause and n % args.fanout == args.fanout - 1:
            time.sleep(pause)
    after = os.times()
    for connection in connections:
        connection.close()
    reader_seconds = float(other.stdout.readline())
    other.wait()
    user, system = after.user - before.user, after.system - before.system
    per = 1e6 / args.messages
    print(f"{args.messages} writes of {args.size} bytes over {args.streams} loopback connections")
    print(f"  writer: {per * (user + system):.1f} µs a write ({per * user:.1f} user,"
          f" {per * system:.1f} system)")
    print(f"  reader: {per * reader_seconds:.1f} µs a message (its whole processor time)")
    print(f"  machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}")
    print(f"rerun: .venv/bin/python -m tests.bench.socket_floor {' '.join(sys.argv[1:])}")


if __name__ == "__main__":
    main()
