-- stack.lua: a stack and a few helpers.

local insert, remove = table.insert, table.remove

local DEFAULT_LIMIT = 1024

--- A bounded stack.
-- @type Stack
local Stack = {}
Stack.__index = Stack

--- Creates a stack holding at most limit items.
-- @param limit maximum size (default 1024)
function Stack.new(limit)
  return setmetatable({ items = {}, limit = limit or DEFAULT_LIMIT }, Stack)
end

--- Pushes a value; errors when full.
function Stack:push(value)
  if #self.items >= self.limit then
    error(("stack full (%d items)"):format(self.limit), 2)
  end
  insert(self.items, value)
end

--- Pops the top value, or returns nil when empty.
function Stack:pop()
  return remove(self.items)
end

function Stack:peek()
  return self.items[#self.items]
end

function Stack:size()
  return #self.items
end

-- Iterates from the top of the stack down.
function Stack:iter()
  local i = #self.items + 1
  return function()
    i = i - 1
    if i > 0 then
      return self.items[i]
    end
  end
end

local function is_balanced(text)
  local pairs_ = { [")"] = "(", ["]"] = "[", ["}"] = "{" }
  local s = Stack.new(#text)
  for ch in text:gmatch(".") do
    if ch == "(" or ch == "[" or ch == "{" then
      s:push(ch)
    elseif pairs_[ch] then
      if s:pop() ~= pairs_[ch] then
        return false
      end
    end
  end
  return s:size() == 0
end

--- Reverses a list using a stack.
Stack.reverse = function(list)
  local s = Stack.new(#list)
  for _, v in ipairs(list) do
    s:push(v)
  end
  local out = {}
  for v in s:iter() do
    out[#out + 1] = v
  end
  return out
end

return { Stack = Stack, is_balanced = is_balanced }
