import { Link } from "react-router";

export function LogoMark({ className = "size-8" }: { className?: string }) {
  return (
    <svg className={className} viewBox="0 0 32 32" aria-hidden="true">
      <rect width="32" height="32" rx="8" className="fill-accent-600 dark:fill-accent-500" />
      <path
        d="M9 23 16 7l7 16M11.5 17.5h9"
        fill="none"
        stroke="white"
        strokeWidth="2.6"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}

export function Logo() {
  return (
    <Link to="/" className="flex shrink-0 items-center gap-2 rounded-lg" aria-label="Easel home">
      <LogoMark />
      <span className="hidden text-lg font-bold tracking-tight min-[420px]:inline">Easel</span>
    </Link>
  );
}
