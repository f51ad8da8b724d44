import { useState } from "react";

/** Two colours derived from an address, so each account has a recognisable default avatar. */
function gradientFor(address: string): string {
  const hex = address.toLowerCase().replace(/^0x/, "").padEnd(12, "0");
  const a = Number.parseInt(hex.slice(0, 6), 16) % 360;
  const b = Number.parseInt(hex.slice(-6), 16) % 360;
  return `linear-gradient(135deg, hsl(${a} 70% 55%), hsl(${b} 70% 45%))`;
}

/** A profile avatar; falls back to a gradient when there is no image or it fails to load. */
export function Avatar({
  address,
  src,
  className = "size-9",
}: {
  address: string;
  src?: string | null;
  className?: string;
}) {
  const [failed, setFailed] = useState(false);
  if (src && !failed) {
    return (
      <img
        src={src}
        alt=""
        className={`${className} rounded-full object-cover`}
        onError={() => setFailed(true)}
      />
    );
  }
  return <span className={`${className} block rounded-full`} style={{ background: gradientFor(address) }} />;
}
