#!/usr/bin/env python3
# vLLM's client method, for the CPU-per-event comparison in client-ceiling.bench.ts: the
# openai-chat request loop of `vllm bench serve` v0.11.0 as vLLM v0.11.0's vllm/benchmarks/lib/endpoint_request_func.py
# implements it: aiohttp, response.content.iter_any(), strip, decode, split on blank
# lines (keeping a partial message for the next read), skip ':' comments, drop 'data: ', json.loads,
# time.perf_counter() per message, TTFT on the first choice event, ITL gaps after it, prev updated
# on every data message; GC frozen before the run as vLLM does. A reimplementation written from
# that description (not vLLM's code), so its cost is vLLM's method, not a measurement of vLLM.
# Usage: vllm-client-method.py URL REQUESTS CONCURRENCY TOKENS   -> one JSON line on stdout.
import asyncio
import gc
import json
import sys
import time

import aiohttp


async def one(session, sem, url, i, tokens):
    body = {
        "model": "scripted-model",
        "messages": [{"role": "user", "content": [{"type": "text", "text": f"bench prompt number {i}"}]}],
        "temperature": 0.0,
        "max_completion_tokens": tokens,
        "stream": True,
        "stream_options": {"include_usage": True},
    }
    headers = {"Content-Type": "application/json", "x-request-id": f"benchmark-serving{i}"}
    async with sem:
        st = time.perf_counter()
        prev = st
        ttft = 0.0
        itl = []
        text = ""
        events = 0
        buf = ""
        async with session.post(url, json=body, headers=headers) as resp:
            if resp.status != 200:
                return 0
            async for chunk_bytes in resp.content.iter_any():
                chunk_bytes = chunk_bytes.strip()
                if not chunk_bytes:
                    continue
                buf += chunk_bytes.decode("utf-8") + "\n\n"
                parts = buf.split("\n\n")
                buf = parts.pop()
                for message in parts:
                    message = message.strip()
                    if not message or message.startswith(":"):
                        continue
                    chunk = message.removeprefix("data: ")
                    if chunk == "[DONE]":
                        continue
                    data = json.loads(chunk)
                    ts = time.perf_counter()
                    choices = data.get("choices")
                    if choices:
                        content = choices[0]["delta"].get("content")
                        if ttft == 0.0:
                            ttft = ts - st
                        else:
                            itl.append(ts - prev)
                        text += content or ""
                        events += 1
                    prev = ts
        return events


async def main():
    url, n, conc, tokens = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    connector = aiohttp.TCPConnector(limit=conc, keepalive_timeout=60)
    timeout = aiohttp.ClientTimeout(total=6 * 3600)
    async with aiohttp.ClientSession(connector=connector, timeout=timeout) as session:
        sem = asyncio.Semaphore(conc)
        await asyncio.gather(*(one(session, sem, url, -1 - k, 4) for k in range(conc)))  # warm connections
        gc.collect()
        gc.freeze()
        cpu0, t0 = time.process_time(), time.perf_counter()
        counts = await asyncio.gather(*(one(session, sem, url, i, tokens) for i in range(n)))
        cpu, wall = time.process_time() - cpu0, time.perf_counter() - t0
    print(json.dumps({"events": sum(counts), "cpu_s": cpu, "wall_s": wall}))


asyncio.run(main())
