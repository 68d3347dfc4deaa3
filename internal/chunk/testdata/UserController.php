<?php

declare(strict_types=1);

namespace App\Http\Controllers;

use App\Models\User;
use App\Services\Mailer;
use InvalidArgumentException;

/**
 * Formats a display name.
 */
function display_name(string $first, string $last): string
{
    return trim("$first $last");
}

if (! function_exists('initials')) {
    /**
     * The initials of a display name, for avatars without a picture.
     */
    function initials(string $name): string
    {
        $letters = '';
        foreach (preg_split('/\s+/', trim($name)) as $word) {
            $letters .= mb_strtoupper(mb_substr($word, 0, 1));
        }
        return $letters;
    }
}

interface Presenter
{
    public function present(User $user): array;
}

/**
 * CRUD endpoints for users.
 *
 * Every action returns an array the framework encodes as JSON.
 */
#[Route('/users')]
final class UserController extends Controller implements Presenter
{
    use ValidatesRequests;

    public const PAGE_SIZE = 20;

    private array $cache = [];

    public function __construct(
        private readonly Mailer $mailer,
    ) {
    }

    /**
     * Lists users, a page at a time.
     */
    public function index(int $page = 1): array
    {
        if ($page < 1) {
            throw new InvalidArgumentException("page must be at least 1, got $page");
        }
        $users = User::query()
            ->orderBy('id')
            ->offset(($page - 1) * self::PAGE_SIZE)
            ->limit(self::PAGE_SIZE)
            ->get();
        return array_map([$this, 'present'], $users->all());
    }

    /** Shows one user. */
    public function show(int $id): array
    {
        if (!isset($this->cache[$id])) {
            $this->cache[$id] = $this->present(User::findOrFail($id));
        }
        return $this->cache[$id];
    }

    public function store(array $input): array
    {
        $this->validate($input, [
            'email' => 'required|email',
            'first_name' => 'required|string|max:100',
            'last_name' => 'required|string|max:100',
        ]);
        $user = User::create($input);
        $this->mailer->send($user->email, 'welcome', ['name' => display_name($user->first_name, $user->last_name)]);
        return $this->present($user);
    }

    /** Updates the given fields of a user. */
    public function update(int $id, array $input): array
    {
        $user = User::findOrFail($id);
        $user->fill(array_intersect_key($input, array_flip(['email', 'first_name', 'last_name'])));
        $user->save();
        unset($this->cache[$id]);
        return $this->present($user);
    }

    public function destroy(int $id): array
    {
        User::findOrFail($id)->delete();
        unset($this->cache[$id]);
        return ['deleted' => $id];
    }

    public function present(User $user): array
    {
        return [
            'id' => $user->id,
            'name' => display_name($user->first_name, $user->last_name),
            'email' => $user->email,
        ];
    }
}

enum Role: string
{
    case Admin = 'admin';
    case Member = 'member';

    public function label(): string
    {
        return ucfirst($this->value);
    }
}
