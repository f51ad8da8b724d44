import { type ArtistApplication, type Report, shortAddress } from "@easel/common";
import { easelMarketAbi } from "@easel/contracts/abis";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Link } from "react-router";
import { toast } from "sonner";
import { useConfig } from "wagmi";
import { waitForTransactionReceipt, writeContract } from "wagmi/actions";
import { useAppConfig } from "../app/appConfig.tsx";
import { Button } from "../components/Button.tsx";
import { usePageTitle } from "../components/ComingSoon.tsx";
import { inputClass } from "../components/Field.tsx";
import { Spinner } from "../components/Spinner.tsx";
import { useHeaderData } from "../lib/accounts.ts";
import { apiFetch, errorMessage } from "../lib/api.ts";
import { useMarketAddress } from "../lib/verifiedArtist.ts";
import { walletMessage } from "../lib/walletErrors.ts";
import { ROLE_LABELS } from "../pages/ApplyToJoin.tsx";
import { Blocks } from "./Blocks.tsx";

type Tab = "reports" | "applications" | "users" | "blocks";

/** The moderators' area: reports queue, artist applications, users (ban / unban), blocks. Admins only. */
export function AdminPage() {
  usePageTitle("Moderation");
  const header = useHeaderData();
  const [tab, setTab] = useState<Tab>("reports");
  if (header.isPending) {
    return (
      <div className="flex justify-center py-24" role="status" aria-label="Loading">
        <Spinner className="size-8 text-neutral-400" />
      </div>
    );
  }
  if (!header.data?.isAdmin) {
    return (
      <section className="mx-auto w-full max-w-3xl px-4 py-16">
        <h1 className="text-3xl font-bold tracking-tight">Moderators only</h1>
        <p className="mt-4 text-neutral-600 dark:text-neutral-400">This area is for Easel's moderators.</p>
      </section>
    );
  }
  const tabs: { key: Tab; label: string }[] = [
    { key: "reports", label: "Reports" },
    { key: "applications", label: "Artist applications" },
    { key: "users", label: "Users" },
    { key: "blocks", label: "Blocks" },
  ];
  return (
    <section className="mx-auto w-full max-w-6xl px-4 py-10">
      <h1 className="text-3xl font-bold tracking-tight">Moderation</h1>
      <div
        role="tablist"
        aria-label="Moderation"
        className="mt-6 flex gap-1 border-b border-neutral-200 dark:border-neutral-800"
      >
        {tabs.map((t) => (
          <button
            key={t.key}
            type="button"
            role="tab"
            aria-selected={tab === t.key}
            onClick={() => setTab(t.key)}
            className={`-mb-px border-b-2 px-4 py-3 text-sm font-semibold ${
              tab === t.key
                ? "border-accent-600 text-accent-700 dark:text-accent-300"
                : "border-transparent text-neutral-600 hover:text-neutral-900 dark:text-neutral-400"
            }`}
          >
            {t.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" className="pt-6">
        {tab === "reports" ? <ReportsQueue /> : null}
        {tab === "applications" ? <Applications /> : null}
        {tab === "users" ? <Users /> : null}
        {tab === "blocks" ? <Blocks /> : null}
      </div>
    </section>
  );
}

function Loading() {
  return (
    <div role="status" aria-label="Loading" className="py-8">
      <Spinner className="size-6 text-neutral-400" />
    </div>
  );
}

const cell = "px-3 py-2 align-top";

function ReportsQueue() {
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<"open" | "all">("open");
  const reports = useQuery({
    queryKey: ["admin", "reports", status],
    queryFn: async () =>
      (await apiFetch<{ data: { reports: Report[] } }>(`/api/admin/reports?status=${status}`)).data.reports,
  });
  const close = useMutation({
    mutationFn: ({ id, next }: { id: string; next: "resolved" | "dismissed" }) =>
      apiFetch(`/api/admin/reports/${id}`, { method: "PUT", body: { status: next } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["admin", "reports"] }),
    onError: (error) => toast.error(errorMessage(error)),
  });
  return (
    <div className="flex flex-col gap-4">
      <label className="flex items-center gap-2 text-sm">
        Show
        <select
          className={`${inputClass} w-auto`}
          value={status}
          onChange={(e) => setStatus(e.target.value as "open" | "all")}
        >
          <option value="open">Open reports</option>
          <option value="all">All reports</option>
        </select>
      </label>
      {reports.isPending ? (
        <Loading />
      ) : reports.isError ? (
        <p className="text-red-700">{errorMessage(reports.error)}</p>
      ) : reports.data.length === 0 ? (
        <p className="text-neutral-600 dark:text-neutral-400">No reports to review.</p>
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Reports</caption>
            <thead className="text-neutral-500">
              <tr>
                <th className={cell}>Reported</th>
                <th className={cell}>Reason</th>
                <th className={cell}>Description</th>
                <th className={cell}>Reporter</th>
                <th className={cell}>Status</th>
                <th className={cell}>
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-neutral-200 dark:divide-neutral-800">
              {reports.data.map((report) => (
                <tr key={report._id}>
                  <td className={cell}>
                    {report.targetType}: <ReportTarget report={report} />
                  </td>
                  <td className={cell}>{report.reason}</td>
                  <td className={`${cell} max-w-sm whitespace-pre-line break-words`}>{report.description}</td>
                  <td className={cell}>
                    <span className="font-mono">{shortAddress(report.reporter)}</span>
                    <br />
                    {report.email}
                  </td>
                  <td className={cell}>{report.status}</td>
                  <td className={`${cell} whitespace-nowrap`}>
                    {report.status === "open" ? (
                      <div className="flex gap-2">
                        <Button
                          variant="secondary"
                          disabled={close.isPending}
                          onClick={() => close.mutate({ id: report._id, next: "resolved" })}
                        >
                          Resolve
                        </Button>
                        <Button
                          variant="ghost"
                          disabled={close.isPending}
                          onClick={() => close.mutate({ id: report._id, next: "dismissed" })}
                        >
                          Dismiss
                        </Button>
                      </div>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

function ReportTarget({ report }: { report: Report }) {
  const to =
    report.targetType === "profile"
      ? `/profile/${report.targetId}`
      : report.targetType === "collection"
        ? `/collection/${encodeURIComponent(report.targetId)}`
        : report.targetId.startsWith("/")
          ? report.targetId
          : null;
  const label = report.targetType === "profile" ? shortAddress(report.targetId) : report.targetId;
  return to ? (
    <Link to={to} className="text-accent-700 underline dark:text-accent-300">
      {label}
    </Link>
  ) : (
    <span>{label}</span>
  );
}

type Step = { label: string; state: "waiting" | "running" | "done" | "failed"; hash?: string };

function Applications() {
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<"pending" | "all">("pending");
  const applications = useQuery({
    queryKey: ["admin", "applications", status],
    queryFn: async () =>
      (
        await apiFetch<{ data: { applications: ArtistApplication[] } }>(
          `/api/admin/applications?status=${status}`,
        )
      ).data.applications,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ["admin", "applications"] });
  return (
    <div className="flex flex-col gap-4">
      <label className="flex items-center gap-2 text-sm">
        Show
        <select
          className={`${inputClass} w-auto`}
          value={status}
          onChange={(e) => setStatus(e.target.value as "pending" | "all")}
        >
          <option value="pending">Pending applications</option>
          <option value="all">All applications</option>
        </select>
      </label>
      {applications.isPending ? (
        <Loading />
      ) : applications.isError ? (
        <p className="text-red-700">{errorMessage(applications.error)}</p>
      ) : applications.data.length === 0 ? (
        <p className="text-neutral-600 dark:text-neutral-400">No applications to review.</p>
      ) : (
        <ul className="flex flex-col gap-4">
          {applications.data.map((application) => (
            <li key={application._id}>
              <ApplicationCard application={application} onChanged={refresh} />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function ApplicationCard({
  application,
  onChanged,
}: {
  application: ArtistApplication;
  onChanged: () => void;
}) {
  const wagmiConfig = useConfig();
  const appConfig = useAppConfig();
  const market = useMarketAddress();
  const [steps, setSteps] = useState<Step[] | null>(null);
  const [busy, setBusy] = useState(false);

  async function approve() {
    if (!market) {
      toast.error("The server names no market contract (GET /api/config).");
      return;
    }
    setBusy(true);
    const next: Step[] = [
      { label: "Verify the artist on chain (your wallet)", state: "running" },
      { label: "Record the approval", state: "waiting" },
    ];
    setSteps([...next]);
    try {
      const hash = await writeContract(wagmiConfig, {
        address: market,
        abi: easelMarketAbi,
        functionName: "setArtistVerified",
        args: [application.address as `0x${string}`, true],
        chainId: appConfig.chainId,
      });
      next[0] = { ...next[0], state: "running", hash } as Step;
      setSteps([...next]);
      const receipt = await waitForTransactionReceipt(wagmiConfig, { hash, chainId: appConfig.chainId });
      if (receipt.status !== "success") throw new Error("The verification transaction failed.");
      next[0] = { ...next[0], state: "done" } as Step;
      next[1] = { ...next[1], state: "running" } as Step;
      setSteps([...next]);
      await apiFetch(`/api/admin/applications/${application._id}/approve`, { method: "POST", body: {} });
      next[1] = { ...next[1], state: "done" } as Step;
      setSteps([...next]);
      toast.success(`${application.name} is now a verified artist.`);
      onChanged();
    } catch (error) {
      const index = next.findIndex((s) => s.state === "running");
      if (index >= 0) next[index] = { ...next[index], state: "failed" } as Step;
      setSteps([...next]);
      toast.error(walletMessage(error));
    } finally {
      setBusy(false);
    }
  }

  const reject = useMutation({
    mutationFn: () =>
      apiFetch(`/api/admin/applications/${application._id}/reject`, { method: "POST", body: {} }),
    onSuccess: onChanged,
    onError: (error) => toast.error(errorMessage(error)),
  });

  return (
    <article
      className="rounded-xl border border-neutral-200 p-5 dark:border-neutral-800"
      aria-label={`Application from ${application.name}`}
    >
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h3 className="font-semibold">
            {application.name}{" "}
            <span className="font-normal text-neutral-500">({ROLE_LABELS[application.role]})</span>
          </h3>
          <p className="text-sm text-neutral-600 dark:text-neutral-400">
            <Link to={`/profile/${application.address}`} className="font-mono underline">
              {shortAddress(application.address)}
            </Link>{" "}
            · {application.email} · {application.phone} · {application.status}
          </p>
        </div>
        {application.status === "pending" ? (
          <div className="flex gap-2">
            <Button onClick={approve} loading={busy} loadingText="Approving">
              Approve
            </Button>
            <Button
              variant="secondary"
              onClick={() => reject.mutate()}
              loading={reject.isPending}
              disabled={busy}
            >
              Reject
            </Button>
          </div>
        ) : null}
      </div>
      <p className="mt-3 text-sm break-all">
        <a
          href={application.profileURL}
          target="_blank"
          rel="noopener noreferrer nofollow"
          className="text-accent-700 underline dark:text-accent-300"
        >
          {application.profileURL}
        </a>
        {application.portfolio ? (
          <>
            {" · "}
            <a
              href={application.portfolio}
              target="_blank"
              rel="noopener noreferrer nofollow"
              className="text-accent-700 underline dark:text-accent-300"
            >
              Portfolio
            </a>
          </>
        ) : null}
      </p>
      {application.description ? (
        <p className="mt-2 text-sm whitespace-pre-line text-neutral-700 dark:text-neutral-300">
          {application.description}
        </p>
      ) : null}
      {steps ? <Stepper steps={steps} explorerUrl={appConfig.explorerUrl} /> : null}
    </article>
  );
}

function Stepper({ steps, explorerUrl }: { steps: Step[]; explorerUrl: string | null }) {
  return (
    <ol className="mt-4 flex flex-col gap-2 text-sm" aria-label="Approval progress">
      {steps.map((step, index) => (
        <li key={step.label} className="flex flex-wrap items-center gap-2">
          <span
            className={`flex size-6 items-center justify-center rounded-full text-xs font-bold ${
              step.state === "done"
                ? "bg-green-600 text-white"
                : step.state === "failed"
                  ? "bg-red-600 text-white"
                  : step.state === "running"
                    ? "bg-accent-600 text-white"
                    : "bg-neutral-200 dark:bg-neutral-800"
            }`}
          >
            {step.state === "running" ? <Spinner className="size-3" /> : index + 1}
          </span>
          <span>
            {step.label}
            <span className="sr-only"> ({step.state})</span>
          </span>
          {step.hash ? (
            explorerUrl ? (
              <a
                href={`${explorerUrl}/tx/${step.hash}`}
                target="_blank"
                rel="noopener noreferrer"
                className="font-mono text-xs underline"
              >
                {shortAddress(step.hash)}
              </a>
            ) : (
              <span className="font-mono text-xs break-all text-neutral-500">{step.hash}</span>
            )
          ) : null}
        </li>
      ))}
    </ol>
  );
}

type AdminUser = {
  _id: string;
  address: string;
  username: string | null;
  name: string | null;
  avatar: string | null;
  active: boolean;
  createdAt: string;
};

function Users() {
  const queryClient = useQueryClient();
  const [q, setQ] = useState("");
  const [page, setPage] = useState(1);
  const users = useQuery({
    queryKey: ["admin", "users", q, page],
    queryFn: async () =>
      (
        await apiFetch<{ data: { users: AdminUser[]; page: number; lastPage: boolean } }>(
          `/api/admin/users?q=${encodeURIComponent(q)}&page=${page}`,
        )
      ).data,
  });
  const toggle = useMutation({
    mutationFn: (user: AdminUser) =>
      apiFetch(`/api/admin/users/${user.address}/${user.active ? "ban" : "unban"}`, {
        method: "POST",
        body: {},
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["admin", "users"] }),
    onError: (error) => toast.error(errorMessage(error)),
  });
  return (
    <div className="flex flex-col gap-4">
      <label className="flex max-w-md flex-col gap-1.5 text-sm font-semibold">
        Find users by address or username
        <input
          type="search"
          className={inputClass}
          value={q}
          onChange={(event) => {
            setQ(event.target.value);
            setPage(1);
          }}
        />
      </label>
      {users.isPending ? (
        <Loading />
      ) : users.isError ? (
        <p className="text-red-700">{errorMessage(users.error)}</p>
      ) : users.data.users.length === 0 ? (
        <p className="text-neutral-600 dark:text-neutral-400">No users found.</p>
      ) : (
        <>
          <div className="overflow-x-auto">
            <table className="w-full text-left text-sm">
              <caption className="sr-only">Users</caption>
              <thead className="text-neutral-500">
                <tr>
                  <th className={cell}>Address</th>
                  <th className={cell}>Username</th>
                  <th className={cell}>Joined</th>
                  <th className={cell}>Status</th>
                  <th className={cell}>
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-neutral-200 dark:divide-neutral-800">
                {users.data.users.map((user) => (
                  <tr key={user._id}>
                    <td className={`${cell} font-mono`}>
                      <Link to={`/profile/${user.address}`} className="underline">
                        {user.address}
                      </Link>
                    </td>
                    <td className={cell}>{user.username ?? "—"}</td>
                    <td className={cell}>{new Date(user.createdAt).toLocaleDateString("en")}</td>
                    <td className={cell}>{user.active ? "Active" : "Banned"}</td>
                    <td className={cell}>
                      <Button
                        variant={user.active ? "danger" : "secondary"}
                        disabled={toggle.isPending}
                        onClick={() => toggle.mutate(user)}
                        aria-label={`${user.active ? "Ban" : "Unban"} ${user.username ?? user.address}`}
                      >
                        {user.active ? "Ban" : "Unban"}
                      </Button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <div className="flex gap-2">
            <Button variant="secondary" disabled={page === 1} onClick={() => setPage((p) => p - 1)}>
              Previous
            </Button>
            <Button variant="secondary" disabled={users.data.lastPage} onClick={() => setPage((p) => p + 1)}>
              Next
            </Button>
          </div>
        </>
      )}
    </div>
  );
}
