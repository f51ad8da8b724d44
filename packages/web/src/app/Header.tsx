import { mediaUrl } from "@easel/common";
import * as DropdownMenu from "@radix-ui/react-dropdown-menu";
import { useEffect, useId, useState } from "react";
import { Link, NavLink, useLocation } from "react-router";
import { useHeaderData } from "../auth/headerData.ts";
import { useSession } from "../auth/session.ts";
import { useSignOut } from "../auth/useSignOut.ts";
import { CartButton } from "../features/cart/components/CartButton.tsx";
import { Avatar } from "../ui/Avatar.tsx";
import { Button } from "../ui/Button.tsx";
import { Logo } from "../ui/Logo.tsx";
import { Menu } from "../ui/Menu.tsx";
import { menuContentClass, menuItemClass } from "../ui/menu.ts";
import { useWalletDialog } from "../wallet/walletDialogState.tsx";
import { SearchBox } from "./SearchBox.tsx";
import { HELP_LINKS } from "./siteLinks.ts";

const navLinkClass = ({ isActive }: { isActive: boolean }) =>
  `rounded-lg px-3 py-2 text-sm font-medium transition-colors hover:bg-neutral-100 dark:hover:bg-neutral-800 ${
    isActive ? "text-accent-700 dark:text-accent-300" : "text-neutral-700 dark:text-neutral-200"
  }`;

export function Header() {
  const { signedIn } = useSession();
  const { openWalletDialog } = useWalletDialog();
  const location = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  const [searchOpen, setSearchOpen] = useState(false);
  const menuId = useId();

  // Close the mobile panels on navigation.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on every location change
  useEffect(() => {
    setMenuOpen(false);
    setSearchOpen(false);
  }, [location.pathname]);

  return (
    <header className="sticky top-0 z-30 border-b border-neutral-200 bg-white/90 backdrop-blur dark:border-neutral-800 dark:bg-neutral-950/90">
      <div className="mx-auto flex h-16 max-w-7xl items-center gap-2 px-4 nav:gap-4">
        <Logo />
        <SearchBox className="hidden max-w-md flex-1 nav:block" />
        <nav aria-label="Main" className="ml-auto hidden items-center gap-1 nav:flex">
          <NavLink to="/ExploreNFTs" className={navLinkClass}>
            Marketplace
          </NavLink>
          <NavLink to="/ExploreCollection" className={navLinkClass}>
            Collection
          </NavLink>
          <HelpMenu />
          {signedIn ? (
            <NavLink to="/mint" className={navLinkClass}>
              Create
            </NavLink>
          ) : null}
        </nav>
        <div className="ml-auto flex items-center gap-1 nav:ml-0 nav:gap-2">
          <button
            type="button"
            className="rounded-lg p-2 text-neutral-700 hover:bg-neutral-100 nav:hidden dark:text-neutral-200 dark:hover:bg-neutral-800"
            aria-label="Search"
            aria-expanded={searchOpen}
            onClick={() => {
              setSearchOpen((open) => !open);
              setMenuOpen(false);
            }}
          >
            <svg viewBox="0 0 24 24" className="size-5" aria-hidden="true">
              <circle cx="11" cy="11" r="7" fill="none" stroke="currentColor" strokeWidth="2" />
              <path d="m20 20-3.5-3.5" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
            </svg>
          </button>
          <CartButton />
          {signedIn ? (
            <AccountMenu />
          ) : (
            <Button className="whitespace-nowrap px-3 nav:px-4" onClick={openWalletDialog}>
              Connect Wallet
            </Button>
          )}
          <button
            type="button"
            className="rounded-lg p-2 text-neutral-700 hover:bg-neutral-100 nav:hidden dark:text-neutral-200 dark:hover:bg-neutral-800"
            aria-label="Menu"
            aria-expanded={menuOpen}
            aria-controls={menuId}
            onClick={() => {
              setMenuOpen((open) => !open);
              setSearchOpen(false);
            }}
          >
            <svg viewBox="0 0 24 24" className="size-6" aria-hidden="true">
              {menuOpen ? (
                <path d="M6 6l12 12M18 6 6 18" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
              ) : (
                <path
                  d="M4 7h16M4 12h16M4 17h16"
                  stroke="currentColor"
                  strokeWidth="2"
                  strokeLinecap="round"
                />
              )}
            </svg>
          </button>
        </div>
      </div>

      {searchOpen ? (
        <div className="border-t border-neutral-200 px-4 py-3 nav:hidden dark:border-neutral-800">
          <SearchBox autoFocus />
        </div>
      ) : null}

      {menuOpen ? (
        <nav
          id={menuId}
          aria-label="Mobile"
          className="border-t border-neutral-200 px-4 py-3 nav:hidden dark:border-neutral-800"
        >
          <ul className="flex flex-col gap-1">
            <li>
              <NavLink to="/ExploreNFTs" className={(s) => `block ${navLinkClass(s)}`}>
                Marketplace
              </NavLink>
            </li>
            <li>
              <NavLink to="/ExploreCollection" className={(s) => `block ${navLinkClass(s)}`}>
                Collection
              </NavLink>
            </li>
            {signedIn ? (
              <li>
                <NavLink to="/mint" className={(s) => `block ${navLinkClass(s)}`}>
                  Create
                </NavLink>
              </li>
            ) : null}
          </ul>
          <p className="mt-3 px-3 text-xs font-semibold tracking-wide text-neutral-500 uppercase">Help</p>
          <ul className="mt-1 flex flex-col gap-1">
            {HELP_LINKS.map((link) => (
              <li key={link.label}>
                <Link to={link.to} className={`block ${navLinkClass({ isActive: false })}`}>
                  {link.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      ) : null}
    </header>
  );
}

function HelpMenu() {
  return (
    <Menu
      triggerClassName={`${navLinkClass({ isActive: false })} inline-flex items-center gap-1`}
      trigger={
        <>
          Help
          <svg viewBox="0 0 24 24" className="size-4" aria-hidden="true">
            <path d="m6 9 6 6 6-6" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
          </svg>
        </>
      }
    >
      {HELP_LINKS.map((link) => (
        <DropdownMenu.Item key={link.label} asChild className={menuItemClass}>
          <Link to={link.to}>{link.label}</Link>
        </DropdownMenu.Item>
      ))}
    </Menu>
  );
}

function AccountMenu() {
  const { session, profile, numberOfNewNotif } = useSession();
  const signOut = useSignOut();
  const badgeId = useId();
  const [leaving, setLeaving] = useState(false);
  const header = useHeaderData();
  if (!session) return null;
  const userKey = profile?.username || session.address;
  const hasNew = numberOfNewNotif > 0;

  return (
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger
        aria-label="Account menu"
        aria-describedby={hasNew ? badgeId : undefined}
        className="relative rounded-full p-0.5"
      >
        <Avatar address={session.address} src={mediaUrl(profile?.avatar)} />
        {hasNew ? (
          <span
            id={badgeId}
            className="absolute -top-1 -right-1 flex h-5 min-w-5 items-center justify-center rounded-full bg-red-600 px-1 text-[11px] font-bold text-white tabular-nums ring-2 ring-white dark:ring-neutral-950"
          >
            {numberOfNewNotif > 99 ? "99+" : numberOfNewNotif}
            <span className="sr-only"> new notifications</span>
          </span>
        ) : null}
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content align="end" sideOffset={8} className={menuContentClass}>
          <DropdownMenu.Item asChild className={menuItemClass}>
            <Link to="/profile">Profile</Link>
          </DropdownMenu.Item>
          <DropdownMenu.Item asChild className={menuItemClass}>
            <Link to={`/profile/edit/${userKey}`}>Setting</Link>
          </DropdownMenu.Item>
          <DropdownMenu.Item asChild className={menuItemClass}>
            <Link to={`/profile/edit/${userKey}`} state="listNotification">
              Notification
              {hasNew ? (
                <span className="size-2 rounded-full bg-red-600">
                  <span className="sr-only">(new)</span>
                </span>
              ) : null}
            </Link>
          </DropdownMenu.Item>
          {profile && !profile.active ? (
            <DropdownMenu.Item asChild className={menuItemClass}>
              <Link to="/banned">Account suspended</Link>
            </DropdownMenu.Item>
          ) : null}
          {header.data?.isAdmin ? (
            <DropdownMenu.Item asChild className={menuItemClass}>
              <Link to="/admin">Moderation</Link>
            </DropdownMenu.Item>
          ) : null}
          <DropdownMenu.Separator className="my-1 h-px bg-neutral-200 dark:bg-neutral-800" />
          <DropdownMenu.Item
            className={`${menuItemClass} text-red-700 dark:text-red-400`}
            disabled={leaving}
            onSelect={async () => {
              setLeaving(true);
              try {
                await signOut();
              } finally {
                setLeaving(false);
              }
            }}
          >
            Disconnect
          </DropdownMenu.Item>
          <DropdownMenu.Item
            className={menuItemClass}
            disabled={leaving}
            onSelect={async () => {
              setLeaving(true);
              try {
                await signOut({ everywhere: true });
              } finally {
                setLeaving(false);
              }
            }}
          >
            Sign out everywhere
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
