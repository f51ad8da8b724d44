import {
  type AdminUser,
  APPLICATION_ROLE_LABELS,
  type ArtistApplication,
  displayName,
  type Report,
} from "@easel/common";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Link } from "react-router";
import { toast } from "sonner";
import { errorMessage } from "../../../api/client.ts";
import { useHeaderData } from "../../../auth/headerData.ts";
import { dateText } from "../../../lib/dates.ts";
import { usePageTitle } from "../../../lib/usePageTitle.ts";
import { Button } from "../../../ui/Button.tsx";
import { inputClass } from "../../../ui/Field.tsx";
import { Loading } from "../../../ui/Loading.tsx";
import { PersonName } from "../../../ui/PersonName.tsx";
import { useMarket } from "../../../web3/contracts.ts";
import { Stepper } from "../../../web3/tx/Stepper.tsx";
import { apiStep, writeStep } from "../../../web3/tx/steps.ts";
import { useTransactionFlow } from "../../../web3/tx/useTransactionFlow.ts";
import {
  approveApplication,
  moderationKeys,
  setEaselBan,
  useAdminUsers,
  useApplications,
  useCloseReport,
  useRejectApplication,
  useReports,
  useSetLazyAllowance,
} from "../api/moderation.ts";
import { Blocks } from "./Blocks.tsx";
import { HeldPayments } from "./HeldPayments.tsx";

/** Shows a failed moderator action. */
const showError = (error: unknown) => toast.error(errorMessage(error));

type Tab = "reports" | "applications" | "users" | "blocks" | "held";

/**
 * The moderators' area: reports queue, artist applications, users (ban / unban), blocks, payments held for
 * banned payees. Admins only.
 */
export function AdminPage() {
  usePageTitle("Moderation");
  const header = useHeaderData();
  const [tab, setTab] = useState<Tab>("reports");
  if (header.isPending) {
    return <Loading label="Loading" size="page" />;
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
    { key: "held", label: "Held payments" },
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
        {tab === "held" ? <HeldPayments /> : null}
      </div>
    </section>
  );
}

const cell = "px-3 py-2 align-top";

/** "Show [Open reports | All reports]": which part of a moderation queue to list. */
function ShowFilter<V extends string>({
  value,
  onChange,
  options,
}: {
  value: V;
  onChange: (value: V) => void;
  options: Record<V, string>;
}) {
  return (
    <label className="flex items-center gap-2 text-sm">
      Show
      <select
        className={`${inputClass} w-auto`}
        value={value}
        onChange={(e) => onChange(e.target.value as V)}
      >
        {(Object.entries(options) as [V, string][]).map(([option, label]) => (
          <option key={option} value={option}>
            {label}
          </option>
        ))}
      </select>
    </label>
  );
}

function ReportsQueue() {
  const [status, setStatus] = useState<"open" | "all">("open");
  const reports = useReports(status);
  const close = useCloseReport();
  return (
    <div className="flex flex-col gap-4">
      <ShowFilter
        value={status}
        onChange={setStatus}
        options={{ open: "Open reports", all: "All reports" }}
      />
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
                    <PersonName person={report.reporterPerson} />
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
                          onClick={() =>
                            close.mutate({ id: report._id, next: "resolved" }, { onError: showError })
                          }
                        >
                          Resolve
                        </Button>
                        <Button
                          variant="ghost"
                          disabled={close.isPending}
                          onClick={() =>
                            close.mutate({ id: report._id, next: "dismissed" }, { onError: showError })
                          }
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

/**
 * A report's target. Targets are ids the server checked (an address, or `collection:tokenId`), never links:
 * a profile links to its page here on Easel; collections and items show their id until their pages exist.
 */
function ReportTarget({ report }: { report: Report }) {
  if (report.targetType === "profile") {
    return (
      <PersonName
        person={report.targetPerson ?? { address: report.targetId }}
        className="text-accent-700 underline dark:text-accent-300"
      />
    );
  }
  return <span className="font-mono text-xs break-all">{report.targetId}</span>;
}

function Applications() {
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<"pending" | "all">("pending");
  const applications = useApplications(status);
  const refresh = () => queryClient.invalidateQueries({ queryKey: moderationKeys.applications() });
  return (
    <div className="flex flex-col gap-4">
      <ShowFilter
        value={status}
        onChange={setStatus}
        options={{ pending: "Pending applications", all: "All applications" }}
      />
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
  const market = useMarket();
  const flow = useTransactionFlow();
  const reject = useRejectApplication();

  async function approve() {
    if (!market) {
      toast.error("The server names no market contract (GET /api/config).");
      return;
    }
    const done = await flow.run([
      writeStep("Verify the artist on chain (your wallet)", {
        ...market,
        functionName: "setArtistVerified",
        args: [application.address as `0x${string}`, true],
      }),
      apiStep("Record the approval", () => approveApplication(application._id)),
    ]);
    if (done) {
      toast.success(`${application.name} is now a verified artist.`);
      onChanged();
    }
  }

  return (
    <article
      className="rounded-xl border border-neutral-200 p-5 dark:border-neutral-800"
      aria-label={`Application from ${application.name}`}
    >
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h3 className="font-semibold">
            {application.name}{" "}
            <span className="font-normal text-neutral-500">
              ({APPLICATION_ROLE_LABELS[application.role]})
            </span>
          </h3>
          <p className="text-sm text-neutral-600 dark:text-neutral-400">
            <PersonName person={{ address: application.address }} className="underline" /> ·{" "}
            {application.email} · {application.phone} · {application.status}
          </p>
        </div>
        {application.status === "pending" ? (
          <div className="flex gap-2">
            <Button onClick={approve} loading={flow.running} loadingText="Approving">
              Approve
            </Button>
            <Button
              variant="secondary"
              onClick={() => reject.mutate(application._id, { onSuccess: onChanged, onError: showError })}
              loading={reject.isPending}
              disabled={flow.running}
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
      {flow.steps ? <Stepper steps={flow.steps} label="Approval progress" /> : null}
    </article>
  );
}

/**
 * A ban holds on both sides: on the market contract (from the moderator's wallet: the banned account can
 * then only cancel and withdraw, whatever app it uses) and on Easel (signed out, turned away from member
 * pages). The chain goes first, so a refused transaction changes nothing.
 */
function useBan() {
  const market = useMarket();
  const flow = useTransactionFlow();
  const queryClient = useQueryClient();
  async function run(user: AdminUser) {
    if (!market) {
      toast.error("The server names no market contract (GET /api/config).");
      return;
    }
    const banned = user.active;
    const done = await flow.run([
      writeStep(`${banned ? "Ban" : "Unban"} on the market (your wallet)`, {
        ...market,
        functionName: "setBanned",
        args: [user.address as `0x${string}`, banned],
      }),
      apiStep(`${banned ? "Ban" : "Unban"} on Easel`, () => setEaselBan(user, banned)),
    ]);
    await queryClient.invalidateQueries({ queryKey: moderationKeys.users() });
    if (done) toast.success(`${displayName(user)} is ${banned ? "banned" : "active again"}.`);
  }
  return { run, running: flow.running, steps: flow.steps };
}

function Users() {
  const [q, setQ] = useState("");
  const [page, setPage] = useState(1);
  const users = useAdminUsers(q, page);
  const ban = useBan();
  const allowance = useSetLazyAllowance();
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
                  <th className={cell}>Name</th>
                  <th className={cell}>Joined</th>
                  <th className={cell}>Status</th>
                  <th className={cell}>Lazy collections</th>
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
                    <td className={cell}>
                      {user.name || user.username || user.ens ? (
                        <PersonName person={user} link={false} />
                      ) : (
                        "—"
                      )}
                    </td>
                    <td className={cell}>{dateText(user.createdAt)}</td>
                    <td className={cell}>{user.active ? "Active" : "Banned"}</td>
                    <td className={cell}>
                      <input
                        type="number"
                        min={0}
                        max={100}
                        defaultValue={user.lazyCollections}
                        key={user.lazyCollections}
                        aria-label={`Lazy collections allowed for ${user.username ?? user.address}`}
                        className={`${inputClass} w-20`}
                        disabled={allowance.isPending}
                        onBlur={(event) => {
                          const lazyCollections = Number(event.target.value);
                          if (lazyCollections === user.lazyCollections) return;
                          allowance.mutate(
                            { address: user.address, lazyCollections },
                            {
                              onError: (error) => {
                                event.target.value = String(user.lazyCollections);
                                showError(error);
                              },
                            },
                          );
                        }}
                      />
                    </td>
                    <td className={cell}>
                      <Button
                        variant={user.active ? "danger" : "secondary"}
                        disabled={ban.running}
                        onClick={() => ban.run(user)}
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
      {ban.steps ? <Stepper steps={ban.steps} label="Ban progress" /> : null}
    </div>
  );
}
