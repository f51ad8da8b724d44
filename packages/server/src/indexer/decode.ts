import { easelCollectionAbi, easelFactoryAbi, easelMarketAbi } from "@easel/contracts";
import {
  type AbiEvent,
  type AbiParameter,
  type AbiParameterToPrimitiveType,
  decodeAbiParameters,
  type Hex,
  type RpcLog,
  toEventSelector,
} from "viem";

/** A decoded log in its stored form (the same shape whether it comes from the RPC or from `chain_events`). */
export type ChainEvent = {
  blockNumber: bigint;
  logIndex: number;
  blockHash: string;
  txHash: string;
  address: string;
  name: string;
  /** Integers as decimal strings, addresses lowercase, bytes as 0x hex, structs as objects. */
  args: Record<string, unknown>;
  blockTime: Date;
};

/** One ABI word (64 hex digits, no 0x) of an elementary static type, read into its stored form. */
type WordReader = (word: string) => unknown;

/** The reader of a one-word elementary type, or undefined for any other type. */
function wordReader(type: string): WordReader | undefined {
  if (type === "address") return (word) => `0x${word.slice(24).toLowerCase()}`;
  if (type === "bool") return (word) => word.endsWith("1");
  if (type === "bytes32") return (word) => `0x${word.toLowerCase()}`;
  const uint = /^uint(\d+)$/.exec(type);
  if (!uint) return undefined;
  // As viem decodes them: up to 48 bits a number, wider a bigint (stored as a decimal string). A value
  // below 2^53 parses exactly as a double, without a bigint.
  if (Number(uint[1]) <= 48) return (word) => Number.parseInt(word, 16);
  return (word) => {
    const n = Number.parseInt(word, 16);
    return n <= Number.MAX_SAFE_INTEGER ? String(n) : BigInt(`0x${word}`).toString();
  };
}

/** An input of an event with how to read it: `word` for one-word elementary types. */
type Input = { name: string; parameter: AbiParameter; word: WordReader | undefined };

/**
 * An event with its inputs split the way logs carry them: indexed in topics, the rest in data, each with its
 * reader built once. `words` is set when every data input is a one-word elementary type.
 */
type EventDecoder = {
  name: string;
  indexed: readonly Input[];
  data: readonly Input[];
  words: boolean;
};

const input = (parameter: AbiParameter, i: number): Input => ({
  name: parameter.name ?? String(i),
  parameter,
  word: wordReader(parameter.type),
});

/** Every event of the three contracts by topic0 (events shared by several ABIs have one signature). */
const EVENTS = new Map<string, EventDecoder>();
for (const abi of [easelMarketAbi, easelFactoryAbi, easelCollectionAbi] as readonly (readonly unknown[])[]) {
  for (const item of abi as readonly { type: string }[]) {
    if (item.type !== "event") continue;
    const event = item as AbiEvent;
    const data = event.inputs.filter((i) => !i.indexed).map(input);
    EVENTS.set(toEventSelector(event), {
      name: event.name,
      indexed: event.inputs.filter((i) => i.indexed).map(input),
      data,
      words: data.every((i) => i.word),
    });
  }
}

const DYNAMIC = /^(string|bytes|tuple)$|\[/;

/**
 * Decodes one log into its stored form with its precomputed decoder: one-word elementary values are read
 * straight from the hex (most events have only those; a backfill decodes them by the hundred thousand),
 * anything else goes through viem's ABI decoder.
 */
function decodeArgs(decoder: EventDecoder, topics: readonly Hex[], data: Hex): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (let i = 0; i < decoder.indexed.length; i++) {
    const { name, parameter, word } = decoder.indexed[i] as Input;
    const topic = topics[i + 1] as Hex;
    // Indexed dynamic values are only present as their hash.
    args[name] = DYNAMIC.test(parameter.type)
      ? topic.toLowerCase()
      : word
        ? word(topic.slice(2))
        : normalize(decodeAbiParameters([parameter], topic)[0]);
  }
  if (decoder.words) {
    for (let i = 0; i < decoder.data.length; i++) {
      const { name, word } = decoder.data[i] as Input;
      args[name] = (word as WordReader)(data.slice(2 + i * 64, 2 + (i + 1) * 64));
    }
  } else if (decoder.data.length > 0) {
    const values = decodeAbiParameters(
      decoder.data.map((d) => d.parameter),
      data,
    );
    decoder.data.forEach((d, i) => {
      args[d.name] = normalize(values[i]);
    });
  }
  return args;
}

/** JSON-safe form of a decoded value: bigints as strings, addresses and hex lowercase. */
export function normalize(value: unknown): unknown {
  if (typeof value === "bigint") return value.toString();
  if (typeof value === "string") return value.startsWith("0x") ? value.toLowerCase() : value;
  if (Array.isArray(value)) return value.map(normalize);
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, normalize(v)]));
  }
  return value;
}

/**
 * Decodes logs of Easel's contracts, as the RPC sends them (`eth_getLogs`: numbers in hex). Logs with an
 * unknown topic (none expected: getLogs is filtered by our addresses) are skipped. `blockTime` comes from the
 * log's `blockTimestamp`, or from `times`.
 */
export function decodeLogs(logs: RpcLog[], times: Map<bigint, Date> = new Map()): ChainEvent[] {
  const out: ChainEvent[] = [];
  // A block's logs share its number, hash and time: one bigint, string and Date per block, not per log.
  let block = null as { raw: string; rawHash: string; number: bigint; hash: string; time: Date } | null;
  for (const log of logs) {
    const topic = log.topics[0];
    const decoder = topic ? EVENTS.get(topic) : undefined;
    if (
      !decoder ||
      log.blockNumber === null ||
      log.logIndex === null ||
      !log.blockHash ||
      !log.transactionHash
    ) {
      continue;
    }
    if (block?.raw !== log.blockNumber || block.rawHash !== log.blockHash) {
      const number = BigInt(log.blockNumber);
      const time =
        log.blockTimestamp != null ? new Date(Number(log.blockTimestamp) * 1000) : times.get(number);
      if (!time) throw new Error(`no timestamp for block ${number}`);
      const hash = log.blockHash.toLowerCase();
      block = { raw: log.blockNumber, rawHash: log.blockHash, number, hash, time };
    }
    out.push({
      blockNumber: block.number,
      logIndex: Number(log.logIndex),
      blockHash: block.hash,
      txHash: log.transactionHash.toLowerCase(),
      address: log.address.toLowerCase(),
      name: decoder.name,
      args: decodeArgs(decoder, log.topics, log.data),
      blockTime: block.time,
    });
  }
  return sortEvents(out);
}

const chainOrder = (a: ChainEvent, b: ChainEvent) =>
  a.blockNumber === b.blockNumber ? a.logIndex - b.logIndex : a.blockNumber < b.blockNumber ? -1 : 1;

/** Events in chain order (in place); a list in order already (the usual case) is only checked. */
export function sortEvents(events: ChainEvent[]): ChainEvent[] {
  for (let i = 1; i < events.length; i++) {
    if (chainOrder(events[i - 1] as ChainEvent, events[i] as ChainEvent) > 0) return events.sort(chainOrder);
  }
  return events;
}

/** Whether a log is the factory's CollectionCreated (used to discover collections within a batch). */
export const COLLECTION_CREATED_TOPIC = [...EVENTS.entries()].find(
  ([, e]) => e.name === "CollectionCreated",
)?.[0];

/** Every event of Easel's contracts, from the generated ABIs. */
type EaselAbiEvent = Extract<
  (typeof easelMarketAbi | typeof easelFactoryAbi | typeof easelCollectionAbi)[number],
  { type: "event" }
>;
export type EventName = EaselAbiEvent["name"];

/** A decoded value in its stored form (see `normalize`): integers and addresses as strings. */
type Normalized<T> = T extends bigint
  ? string
  : T extends `0x${string}`
    ? string
    : T extends readonly (infer U)[]
      ? Normalized<U>[]
      : T extends object
        ? { [K in keyof T]: Normalized<T[K]> }
        : T;

/** The arguments of event `N` as handlers receive them. */
export type EventArgs<N extends EventName> = {
  [P in Extract<EaselAbiEvent, { name: N }>["inputs"][number] as P["name"] & string]: Normalized<
    AbiParameterToPrimitiveType<P>
  >;
};

/** A stored event whose name, and so whose arguments, are known. */
export type EaselEvent<N extends EventName> = Omit<ChainEvent, "name" | "args"> & {
  name: N;
  args: EventArgs<N>;
};
