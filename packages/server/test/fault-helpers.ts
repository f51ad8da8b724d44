/**
 * Faults to inject into the API's dependencies: a PostgreSQL that stops answering on open connections, a
 * JSON-RPC provider that answers errors or nothing.
 */
import { createServer as createHttpServer } from "node:http";
import { connect, createServer, type Socket } from "node:net";

/**
 * A TCP proxy in front of the test PostgreSQL that can stop forwarding (`freeze`): the connections stay open and
 * nothing comes back, as from a paused server or a failover that blackholes the old primary.
 */
export async function freezableProxy(target: string) {
  const upstream = new URL(target);
  let frozen = false;
  const sockets: Socket[] = [];
  const server = createServer((client) => {
    const server = connect(Number(upstream.port || 5432), upstream.hostname);
    sockets.push(client, server);
    client.on("data", (chunk) => {
      if (!frozen) server.write(chunk);
    });
    server.on("data", (chunk) => {
      if (!frozen) client.write(chunk);
    });
    client.on("error", () => server.destroy());
    server.on("error", () => client.destroy());
    client.on("close", () => server.destroy());
    server.on("close", () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = new URL(target);
  url.hostname = "127.0.0.1";
  url.port = String((server.address() as { port: number }).port);
  return {
    url: url.toString(),
    freeze: () => {
      frozen = true;
    },
    /** Forwards again; the connections that lived through the freeze are cut (their protocol state is lost). */
    thaw: () => {
      frozen = false;
      for (const socket of sockets.splice(0)) socket.destroy();
    },
    close: async () => {
      for (const socket of sockets.splice(0)) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** A JSON-RPC endpoint that answers every call with `answer` (an error object, or an HTTP status), or never. */
export async function failingRpc(answer: { code: number; message: string; data?: string } | number | "hang") {
  const server = createHttpServer(async (request, response) => {
    let body = "";
    for await (const chunk of request) body += chunk;
    if (answer === "hang") return;
    if (typeof answer === "number") {
      response.writeHead(answer).end("Too Many Requests");
      return;
    }
    const { id } = JSON.parse(body) as { id: number };
    response
      .writeHead(200, { "content-type": "application/json" })
      .end(JSON.stringify({ jsonrpc: "2.0", id, error: answer }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}
